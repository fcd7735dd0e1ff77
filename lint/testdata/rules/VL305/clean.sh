docker run --gpus all --shm-size 16g -p 8000:8000 vllm/vllm-openai:v0.10.1 meta-llama/Llama-3.1-8B-Instruct
