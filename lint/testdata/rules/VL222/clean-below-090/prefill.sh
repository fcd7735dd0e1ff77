# lint-version: 0.8.5
# 1P1D over two nodes, DP8 each, without VLLM_NIXL_SIDE_CHANNEL_HOST: the
# prefill engine advertises localhost and the decoder handshakes with
# itself ("Remote NIXL agent engine ID mismatch", vLLM #27083).
vllm serve m --data-parallel-size 8 --enable-expert-parallel --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' # want VL133
