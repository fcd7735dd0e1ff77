# lint-version: 0.10.1
export GLOO_SOCKET_IFNAME=ib0
export VLLM_HOST_IP=192.168.10.2 # want VL219
ray start --address=192.168.10.1:6379 --node-ip-address=10.1.0.2
