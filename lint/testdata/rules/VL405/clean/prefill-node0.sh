# lint-spec: ../../../specs/pd-two-nodes.yaml
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0 VLLM_HOST_IP=192.168.2.10
export VLLM_NIXL_SIDE_CHANNEL_HOST=192.168.2.10 UCX_NET_DEVICES=mlx5_0:1
vllm serve /models/gpt-oss-120b --served-model-name gpt-oss-120b --tensor-parallel-size 8 --max-model-len 16384 --port 8100 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'
