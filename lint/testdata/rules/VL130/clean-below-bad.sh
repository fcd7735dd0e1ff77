# lint-version: 0.6.4
# want:3 VL102
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{"method": "medusa2", "num_speculative_tokens": 0}'
