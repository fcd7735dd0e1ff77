# lint-version: 0.19.0
# MambaCacheMode = Literal["all", "align", "none"] and MMEncoderTPMode =
# Literal["weights", "data"] (vllm/config at the v0.19.0 tag) are argparse
# choices: other values exit "invalid choice".
vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --mamba-cache-mode aligned # want VL104
vllm serve Qwen/Qwen3-VL-8B-Instruct -tp 2 --mm-encoder-tp-mode dp # want VL104
vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --mamba-cache-mode align
vllm serve Qwen/Qwen3-VL-8B-Instruct -tp 2 --mm-encoder-tp-mode data
