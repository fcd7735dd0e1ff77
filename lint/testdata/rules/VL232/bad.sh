# lint-version: 0.8.5
ray start --head --port=6379 --node-ip-address=10.0.0.1
ray start --block --address=10.0.0.9:6379 --node-ip-address=10.0.0.2 # want VL232
