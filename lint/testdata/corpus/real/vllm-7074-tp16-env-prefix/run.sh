# vlaunch:vllm-version=0.5.3
GLOO_SOCKET_IFNAME=bond0 NCCL_SOCKET_IFNAME=bond0 TP_SOCKET_IFNAME="bond0" vllm serve /srv/weights/dense-405b --tensor-parallel-size 16
