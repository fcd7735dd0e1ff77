# lint-version: 0.13.0
# 0.13.0 still reads VLLM_ATTENTION_BACKEND (not from 0.16.0): the forced
# FlashInfer MLA backend returns no decode LSE before PR #43729.
VLLM_ATTENTION_BACKEND=FLASHINFER_MLA vllm serve deepseek-ai/DeepSeek-V3 -tp 8 -dcp 8 # want VL134
