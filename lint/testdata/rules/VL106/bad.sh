vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --max-model-len 16384 # want VL106
vllm serve m --port 1 --port 2 --port 3 --port 4 # want VL106
vllm serve m --max-num-seqs 1024 --enable-prefix-caching --max-num-seqs=8 # want VL106
vllm serve m -tp 2 --tensor-parallel-size 4 # want VL106
python -m vllm.entrypoints.openai.api_server --model m --enable-prefix-caching --no-enable-prefix-caching # want VL106
