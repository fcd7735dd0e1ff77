# lint-version: 0.20.0
# deepep_v2 came after 0.22.1 (absent from its argparse choices): refused here.
vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --all2all-backend deepep_v2 # want VL104
