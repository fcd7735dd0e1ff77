vllm serve --tensor-parallel-size 2 meta-llama/Llama-3.1-8B-Instruct # want VL128
