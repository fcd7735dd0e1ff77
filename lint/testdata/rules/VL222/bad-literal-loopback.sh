# lint-version: 0.12.0
# The fixed-literal counterpart of default-warning.sh (qa45a input 09): no
# caller variable can override 127.0.0.1 here, so VL222 stays an error.
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
NIXL_SIDE_CHANNEL_HOST=127.0.0.1 # want VL222 (error, asserted in vl222_default_test.go)
export VLLM_NIXL_SIDE_CHANNEL_HOST=${NIXL_SIDE_CHANNEL_HOST}
# One node of a prefill instance spanning two nodes.
vllm serve m --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 \
  --enable-expert-parallel --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'
