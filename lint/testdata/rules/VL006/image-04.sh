docker run --gpus all --ipc host -p 8000:8000 vllm/vllm-openai:v0.4.2 meta-llama/Llama-3.1-8B-Instruct # want VL006
