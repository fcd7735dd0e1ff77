PORT=${PORT:-8000}
vllm serve meta-llama/Llama-3.1-8B-Instruct --port "$PORT"
