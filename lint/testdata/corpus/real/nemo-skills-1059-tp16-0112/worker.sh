export GLOO_SOCKET_IFNAME=bond0 NCCL_SOCKET_IFNAME=bond0
ray start --address=10.4.0.2:6379 --num-gpus=8 --block
