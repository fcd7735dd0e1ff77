# lint-version: 0.19.0
# MooncakeConnector's _get_tp_ratio asserts that one TP size divides the other
# ("is not divisible by remote tensor parallel size"), even after #36869.
# (TP 3 does not split Llama-3.1-8B's 32 attention heads either: VL139.)
CUDA_VISIBLE_DEVICES=0,1 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8100 --tensor-parallel-size 2 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=2,3,4 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8200 --tensor-parallel-size 3 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer"}' & # want VL225 VL139
