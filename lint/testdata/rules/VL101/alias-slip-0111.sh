# lint-version: 0.11.1
# 0.11.1 adds --dcp-kv-cache-interleave-size (tag 439368496, L770): `--dcp 4`
# is its unique prefix, so vLLM sets the interleave size to 4 and leaves
# decode context parallel at 1 (a warning: it starts, but not as meant).
vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 4 --dcp 4 # want VL101
