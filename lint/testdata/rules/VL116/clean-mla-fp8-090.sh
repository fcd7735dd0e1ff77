# lint-version: 0.9.0
VLLM_ATTENTION_BACKEND=FLASHMLA vllm serve /models/deepseek-ai/DeepSeek-R1-0528 --trust-remote-code --tensor-parallel-size 8 --kv-cache-dtype fp8
