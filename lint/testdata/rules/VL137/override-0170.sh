# lint-version: 0.17.0
# Up to 0.17.1 cuda.py replaces the size ("Forcing kv cache block size to 64
# for FlashMLASparse backend."): the engine starts with 64, an info.
vllm serve zai-org/GLM-5-FP8 -tp 8 --block-size 128 # want VL137:info
