# lint-version: 0.11.0
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{"method": "medusa2", "num_speculative_tokens": 1}' # want VL130
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "eagle3", "num_speculative_tokens": 3}' # want VL130
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{"method": "mtp", "num_speculative_tokens": 0}' # want VL130
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{"method": "mtp", "num_speculative_tokens": 2.5}' # want VL130
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{"method": "mtp", "num_speculative_tokens": 12}' # want VL130:warning
