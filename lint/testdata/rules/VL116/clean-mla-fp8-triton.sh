# lint-version: 0.8.5
VLLM_ATTENTION_BACKEND=TRITON_MLA vllm serve /models/deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8 --kv-cache-dtype fp8
