# lint-version: 0.13.0
# FlashAttention MLA returns the decode LSE in stored copies and in PR
# #43919's audit (2026-05-28), but the release that gave it is not pinned:
# an info. FlashInfer (GQA) has it from 0.12.0 (PR #25438, merged
# 2025-11-14..21): no finding.
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 -dcp 8 --attention-backend FLASH_ATTN_MLA # want VL134
vllm serve Qwen/Qwen3-235B-A22B --port 8001 -tp 8 -dcp 2 --attention-backend FLASHINFER
# 0.13.0, not 0.12.0: --attention-backend is in arg_utils.py from the v0.13.0 tag (flagspans45).
