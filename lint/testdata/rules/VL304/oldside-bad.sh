docker run --gpus all --ipc=host vllm/vllm-openai:v0.10.1 vllm serve meta-llama/Llama-3.1-8B-Instruct # want VL304
# lint-version: 0.8.5
