# vLLM #20119: the DP RPC port is also the HTTP port.
vllm serve m -dp 2 --data-parallel-size-local 2 --port 8000 --data-parallel-rpc-port 8000 # want VL212
