# lint-version: 0.11.0
# Two nodes of one P/D instance that name the same DP address: the second
# forgot --headless, so it is a second primary, connector or not.
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0 VLLM_NIXL_SIDE_CHANNEL_HOST=10.0.0.1
vllm serve m --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'
