local_ip="192.168.1.12"
node0_ip="192.168.1.11"
nic_name="enp189s0f0"
export HCCL_IF_IP=$local_ip
export GLOO_SOCKET_IFNAME=$nic_name
export TP_SOCKET_IFNAME=$nic_name
export HCCL_SOCKET_IFNAME=$nic_name
vllm serve /root/.cache/modelscope/hub/models/vllm-ascend/GLM-5.2-w8a8 \
  --host 0.0.0.0 \
  --port 8004 \
  --seed 1024 \
  --gpu-memory-utilization 0.95 \
  --api-server-count 1 \
  --max-num-seqs 16 \
  --headless \
  --data-parallel-size 2 \
  --data-parallel-size-local 1 \
  --data-parallel-start-rank 1 \
  --data-parallel-address $local_ip \
  --data-parallel-rpc-port 13389 \
  --tensor-parallel-size 16 \
  --enable-expert-parallel \
  --trust-remote-code
