# lint-version: 0.14.0
# vLLM v0.13.0-v0.15.1 mooncake_connector.py: a decode worker connects to the prefill side
# channel at remote_port + its own tp_rank, so only equal TP sizes pair. Here as a MultiConnector child.
CUDA_VISIBLE_DEVICES=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8100 --tensor-parallel-size 1 --kv-transfer-config '{"kv_connector":"MultiConnector","kv_role":"kv_producer","kv_connector_extra_config":{"connectors":[{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}]}}' &
CUDA_VISIBLE_DEVICES=1,2 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8200 --tensor-parallel-size 2 --kv-transfer-config '{"kv_connector":"MultiConnector","kv_role":"kv_consumer","kv_connector_extra_config":{"connectors":[{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer"}]}}' & # want VL225
