# lint-version: 0.34.0
ray start --head --port 6380 --node-ip-address 10.0.0.1
ray start --block --address 10.0.0.1:6379 --node-ip-address 10.0.0.2 # want VL232
