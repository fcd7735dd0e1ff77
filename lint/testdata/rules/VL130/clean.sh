# lint-version: 0.11.0
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --speculative-config '{"method": "mtp", "num_speculative_tokens": 1}'
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}'
