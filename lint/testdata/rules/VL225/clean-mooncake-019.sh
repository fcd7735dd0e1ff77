# lint-version: 0.19.0
# #36869 (first in 0.19.0): MooncakeConnector pairs unequal TP sizes when one divides the
# other; Llama-3.1-8B has 8 KV heads, so decode TP 4 holds 2 heads a rank and the regions match.
CUDA_VISIBLE_DEVICES=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8100 --tensor-parallel-size 1 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}' &
CUDA_VISIBLE_DEVICES=1,2,3,4 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8200 --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer"}' &
