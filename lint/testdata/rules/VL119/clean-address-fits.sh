# A single-node DP4 group that names its coordinator (a P/D prefill pool):
# all four ranks fit on the node's four devices.
export CUDA_VISIBLE_DEVICES=0,1,2,3
export GLOO_SOCKET_IFNAME=eth0
vllm serve m --data-parallel-size 4 --tensor-parallel-size 1 --data-parallel-address 10.0.0.5 --data-parallel-rpc-port 12321 --enable-expert-parallel
