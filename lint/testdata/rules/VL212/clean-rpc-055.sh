# lint-version: 0.5.5
# From 0.5.5 the frontend uses IPC: co-located servers only need their own ports.
export CUDA_VISIBLE_DEVICES=1
nohup python -m vllm.entrypoints.openai.api_server --model /srv/a --port 8000 > a.log 2>&1 &
export CUDA_VISIBLE_DEVICES=3
nohup python -m vllm.entrypoints.openai.api_server --model /srv/b --port 8003 > b.log 2>&1 &
