# lint-version: 0.18.0
# vLLM v0.16.0-v0.18.1 mooncake/mooncake_connector.py (resolve_need_send, receive_kv):
# NotImplementedError("Mooncake: Heterogeneous TP is not supported yet."); #36869 lifts it in 0.19.0.
CUDA_VISIBLE_DEVICES=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8100 --tensor-parallel-size 1 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=1,2,3,4 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8200 --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer"}' & # want VL225
