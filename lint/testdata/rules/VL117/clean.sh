vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 128k
VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001 --max-model-len 200k
