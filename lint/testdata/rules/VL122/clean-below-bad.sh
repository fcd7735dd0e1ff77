vllm serve deepseek-ai/DeepSeek-V3 -dp 8 -dpl 1 --enable-expert-parallel --data-parallel-hybrid-lb --data-parallel-rank 0 
# lint-version: 0.10.0
# want:1 VL102 VL102 (the info: --data-parallel-rank unverified in 0.10.0, read at the v0.11.0 tag)
