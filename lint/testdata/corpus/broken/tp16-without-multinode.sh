#!/bin/bash
# TP=16 over two 8-GPU nodes with the default mp executor and no --nnodes:
# "Tensor parallel size (16) cannot be larger than the number of available GPUs (8)".
vllm serve meta-llama/Llama-3.1-405B-Instruct --tensor-parallel-size 16 --max-model-len 32768
# want:4 VL111
