# A quoting slip glues a character to the interface; Gloo does not read
# NCCL's ^/= syntax; an address that is neither an IP nor a host name.
export NCCL_SOCKET_IFNAME="eth0"/ # want VL108
export GLOO_SOCKET_IFNAME=^lo,docker0 # want VL108
export VLLM_HOST_IP=10.0.0.1:8000 # want VL108
vllm serve m
# lint-version: 0.8.5
