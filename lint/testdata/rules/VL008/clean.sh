export GLOO_SOCKET_IFNAME=eth0
vllm serve m
