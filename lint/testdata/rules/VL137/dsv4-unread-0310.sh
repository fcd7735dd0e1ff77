# lint-version: 0.31.0
# DeepSeek-V4's kernel block sizes were read at 0.20.0-0.24.0 only: at 0.31.0
# a size 256 does not divide is unverified, an info.
vllm serve deepseek-ai/DeepSeek-V4-Flash -tp 4 --kv-cache-dtype fp8 --block-size 64 # want VL137:info
