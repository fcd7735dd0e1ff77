# lint-version: 0.11.0
# Before 0.11.1 nothing starts with --dcp: argparse exits "unrecognized
# arguments"; the hint names the -dcp alias.
vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 4 --dcp 4 # want VL101
