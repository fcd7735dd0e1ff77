# lint-version: 0.20.0
# 511 tokens fit the default queue depth; an exported depth of 4098 holds
# 2048; vLLM's default for deepep_low_latency (256) fits; high-throughput
# kernels have no such assert.
vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --enable-expert-parallel --all2all-backend deepep_low_latency --max-num-batched-tokens 511
NVSHMEM_QP_DEPTH=4098 vllm serve deepseek-ai/DeepSeek-V3 --port 8001 -dp 16 -dpl 8 --enable-expert-parallel --all2all-backend deepep_low_latency --max-num-batched-tokens 2048
vllm serve deepseek-ai/DeepSeek-V3 --port 8002 -dp 16 -dpl 8 --enable-expert-parallel --all2all-backend deepep_low_latency
vllm serve deepseek-ai/DeepSeek-V3 --port 8003 -dp 16 -dpl 8 --enable-expert-parallel --all2all-backend deepep_high_throughput --max-num-batched-tokens 2048
