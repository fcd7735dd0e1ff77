vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2
python3 -m vllm.entrypoints.openai.api_server --port 8001 --model meta-llama/Llama-3.1-8B-Instruct
