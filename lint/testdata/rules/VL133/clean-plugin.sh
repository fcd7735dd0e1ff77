# lint-version: 0.11.0
# vllm-ascend registers connectors of its own (MooncakeConnectorV1).
export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3
vllm serve m --kv-transfer-config '{"kv_connector":"MooncakeConnectorV1","kv_role":"kv_producer"}'
