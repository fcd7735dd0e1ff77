# lint-version: 0.10.1
# PyNccl/P2pNccl connectors push the KV themselves: the demo proxy is their proxy.
CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_port":"21001"}' &
CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8200 --kv-transfer-config '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_port":"22001"}' &
python3 disagg_proxy_demo.py --model m --prefill localhost:8100 --decode localhost:8200 --port 8000
