# argparse accepts a unique prefix: a warning, and the flag counts as --enable-expert-parallel.
vllm serve m -dp 2 --enable-expert-paralle # want VL101
# lint-version: 0.8.5
