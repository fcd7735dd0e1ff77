# NCCL's exclusion syntax, a Gloo comma list and a host name are fine.
export NCCL_SOCKET_IFNAME=^lo,docker0 GLOO_SOCKET_IFNAME=eth0,eth1 VLLM_HOST_IP=node-1.cluster.local
vllm serve m
