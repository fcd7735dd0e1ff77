vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --max-model-len 16384 # want VL106
vllm serve m --port 1 --port 2 --port 3 --port 4 # want VL106
