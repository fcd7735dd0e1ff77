# lint-version: 0.16.0
# From 0.16.0 vLLM no longer reads VLLM_ATTENTION_BACKEND (PR #32812): the
# variable forces nothing (VL107 says so), so FLASH_ATTN_MLA's missing FP8
# KV cache does not apply; the default backend's support is unverified, not
# refused: no VL116.
VLLM_ATTENTION_BACKEND=FLASH_ATTN_MLA vllm serve /models/deepseek-ai/DeepSeek-R1-0528 --trust-remote-code --tensor-parallel-size 8 --kv-cache-dtype fp8 # want VL107
