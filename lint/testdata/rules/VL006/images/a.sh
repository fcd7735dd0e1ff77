# This file's image names a release in the table: no note.
docker run --gpus all --ipc host -p 8000:8000 vllm/vllm-openai:v0.11.1 meta-llama/Llama-3.1-8B-Instruct
