# lint-version: 0.8.5
# vLLM #18888: FlashMLA in V1 refuses an FP8 KV cache in 0.8.x.
VLLM_ATTENTION_BACKEND=FLASHMLA vllm serve /models/deepseek-ai/DeepSeek-R1-0528 --trust-remote-code --tensor-parallel-size 8 --kv-cache-dtype fp8 # want VL116
