vllm serve deepseek-ai/DeepSeek-V3 -dp 8 -dpl 16 --enable-expert-parallel
# lint-version: 0.8.3
# want:1 VL102 (-dpl is registered from the v0.9.0 tag; flagspans45)
