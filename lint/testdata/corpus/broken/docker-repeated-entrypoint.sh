#!/bin/bash
# A copy-pasted docker command: the image already runs `vllm serve`, the
# container has the default 64 MiB /dev/shm, and the host's NCCL settings
# never reach the container.
export NCCL_SOCKET_IFNAME=ens1f0 # want VL308
docker run --runtime nvidia --gpus all \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    -p 8000:8000 \
    vllm/vllm-openai:v0.10.1.1 \
    vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 8
# want:6 VL305
# want:10 VL304
