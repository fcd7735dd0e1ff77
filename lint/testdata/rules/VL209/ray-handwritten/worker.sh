# lint-version: 0.10.1
ray start --block --address=10.0.0.1:6379 --node-ip-address=10.0.0.2
