# run on each of the three other nodes with its own address
export NCCL_SOCKET_IFNAME=ib0
export GLOO_SOCKET_IFNAME=ib0
export VLLM_HOST_IP=192.168.10.12
ray start --address=192.168.10.11:6379 --node-ip-address=192.168.10.12 --num-gpus=2 --block
