# lint-version: 0.10.1
export GLOO_SOCKET_IFNAME=ib0 VLLM_HOST_IP=192.168.10.1
ray start --head --port=6379 # want VL219
