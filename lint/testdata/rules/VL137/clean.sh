# lint-version: 0.20.0
# Multiples of the kernel block run: 128 on GLM-5 (64-token kernel blocks),
# 512 on DeepSeek-V4 (256), and a model without such a backend keeps any size.
vllm serve zai-org/GLM-5-FP8 -tp 8 --block-size 128
vllm serve deepseek-ai/DeepSeek-V4-Flash -tp 4 --kv-cache-dtype fp8 --block-size 512 --port 8001
vllm serve meta-llama/Llama-3.1-8B-Instruct --block-size 32 --port 8002
