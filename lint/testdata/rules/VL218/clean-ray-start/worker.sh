# lint-version: 0.11.2
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
ray start --address=10.0.0.1:6379 --num-gpus 8
