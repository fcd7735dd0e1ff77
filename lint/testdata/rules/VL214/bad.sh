ray start --head --port=6379
ray start --head --port=6379 # want VL214
