# vlaunch:vllm-version=0.5.3
GLOO_SOCKET_IFNAME=eth0  NCCL_SOCKET_IFNAME=eth0 TP_SOCKET_IFNAME="eth0"  vllm serve /models  --tensor-parallel-size 16 
