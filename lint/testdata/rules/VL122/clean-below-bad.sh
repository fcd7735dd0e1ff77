vllm serve deepseek-ai/DeepSeek-V3 -dp 8 -dpl 1 --enable-expert-parallel --data-parallel-hybrid-lb --data-parallel-rank 0 
# lint-version: 0.9.2
# want:1 VL102 (0.9.2, not 0.10.0: the v0.10.0 tag has --data-parallel-hybrid-lb, v0.9.2 not; --data-parallel-rank is there from v0.9.2; flagspans45)
