export HCCL_IF_IP=10.0.0.1 GLOO_SOCKET_IFNAME=eth0 TP_SOCKET_IFNAME=eth0 HCCL_SOCKET_IFNAME=eth0
vllm serve /data/DeepSeek-V3.2-W8A8 --port 30000 --data-parallel-size 2 --data-parallel-size-local 1 \
  --data-parallel-start-rank 0 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13389 \
  --tensor-parallel-size 16 --enable-expert-parallel --trust-remote-code --max-model-len 16384
