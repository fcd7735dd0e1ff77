export GLOO_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME=eth0
vllm serve meta-llama/Llama-3.1-405B -tp 8 -pp 2 --nnodes 2 --master-addr 10.0.0.1 --master-port 29501 --node-rank 0
# lint-version: 0.11.0
# want:1 VL218
# want:2 VL218
# want:3 VL102
# want:3 VL102
# want:3 VL102
# want:3 VL102
