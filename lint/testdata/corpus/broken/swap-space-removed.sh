#!/bin/bash
# An old recipe run on a new image: --swap-space was removed in 0.18.0 and
# --enable-expert-parallel does not take a value.
docker run --gpus all --ipc=host vllm/vllm-openai:v0.20.0 \
  deepseek-ai/DeepSeek-V3-0324 -tp 8 --swap-space 16 --enable-expert-parallel true --max-model-len 32768
# want-1 VL102 VL105
