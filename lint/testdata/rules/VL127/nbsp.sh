vllm serve m --tensor-parallel-size 2 --port 8000 # want VL127
