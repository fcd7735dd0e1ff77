# lint-version: 0.19.0
# A model lint does not know: its KV heads are unknown, so lint checks only that one TP
# divides the other (it does) and cannot tell whether decode TP 8 exceeds the KV heads.
CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --tensor-parallel-size 1 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_producer"}' &
vllm serve m --port 8200 --tensor-parallel-size 8 --kv-transfer-config '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer"}' &
