# lint-version: 0.12.0
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
export VLLM_NIXL_SIDE_CHANNEL_HOST=0.0.0.0 # want VL222
# One node of a prefill instance spanning two nodes.
vllm serve m --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 \
  --enable-expert-parallel --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'
