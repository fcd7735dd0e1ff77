# lint-version: 0.29.0
# gpustack #6221: the primary passes an explicit start rank 0 with one
# local rank. vLLM counts the start rank as hybrid LB and starts the local
# DP size (1) of API servers, not the DP size (2): nothing for VL215 to
# note (the headless secondary is VL217's finding).
export GLOO_SOCKET_IFNAME=eth0
vllm serve /models/qwen --tensor-parallel-size 2 --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-start-rank 0 --data-parallel-address 10.10.10.37 --data-parallel-rpc-port 40015 --port 40013 # want VL217
