docker run --gpus all --ipc=host vllm/vllm-openai:v0.10.1 meta-llama/Llama-3.1-8B-Instruct
docker run --gpus all --ipc=host --entrypoint bash vllm/vllm-openai:v0.10.1 -c 'vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001'
