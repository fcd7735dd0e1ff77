vllm serve m --port 8000 ) # want VL001
