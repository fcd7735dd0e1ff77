vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192
python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --port 8001
