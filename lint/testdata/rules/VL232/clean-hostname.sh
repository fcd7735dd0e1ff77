# lint-version: 0.10.1
# a name may resolve to the head's address: not compared
ray start --head --port=6379 --node-ip-address=10.0.0.1
ray start --block --address=head-node:6379 --node-ip-address=10.0.0.2
