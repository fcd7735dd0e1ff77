# lint-version: 0.5.4
export CUDA_VISIBLE_DEVICES=1
VLLM_RPC_PORT=5570 nohup python -m vllm.entrypoints.openai.api_server --model /srv/a --port 8000 > a.log 2>&1 &
export CUDA_VISIBLE_DEVICES=3
VLLM_RPC_PORT=5571 nohup python -m vllm.entrypoints.openai.api_server --model /srv/b --port 8003 > b.log 2>&1 &
