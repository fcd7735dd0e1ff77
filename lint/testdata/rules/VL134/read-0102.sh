# lint-version: 0.10.2
# 0.10.2's own vllm/engine/arg_utils.py (tag 01efc7ef7, L647) has
# --decode-context-parallel-size and -dcp, so the flag is no longer an
# unverified info (VL102); 3 still does not divide 8.
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --decode-context-parallel-size 3 # want VL134
