# lint-version: 0.31.0
# 0.25.0 on not read: 0.24.0 would refuse 16; said as an info only.
vllm serve zai-org/GLM-5-FP8 -tp 8 --block-size 16 # want VL137:info
