export VLLM_IMAGE=nvcr.io/nvidia/vllm:25.09-py3

export MN_IF_NAME=enp1s0f1np1

export CONTAINER_NAME=node2