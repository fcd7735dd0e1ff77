# lint-version: 0.14.1
# 0.14.1 still reads VLLM_ATTENTION_BACKEND (deprecated): FLASH_ATTN_MLA has
# no FP8 KV cache (PR #46695).
VLLM_ATTENTION_BACKEND=FLASH_ATTN_MLA vllm serve /models/deepseek-ai/DeepSeek-R1-0528 --trust-remote-code --tensor-parallel-size 8 --kv-cache-dtype fp8 # want VL116
