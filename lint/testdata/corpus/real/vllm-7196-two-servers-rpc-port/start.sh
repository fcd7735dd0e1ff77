export CUDA_VISIBLE_DEVICES=1
nohup python -m vllm.entrypoints.openai.api_server \
  --model /srv/models/chat-a/ \
  --trust-remote-code \
  --dtype half \
  --host 127.0.0.1 \
  --port 8000 \
  --tensor-parallel-size 1 > a.log 2>&1 &

sleep 10
export CUDA_VISIBLE_DEVICES=3
nohup python -m vllm.entrypoints.openai.api_server \
  --model /srv/models/chat-b/ \
  --trust-remote-code \
  --dtype half \
  --host 127.0.0.1 \
  --port 8003 \
  --tensor-parallel-size 1 > b.log 2>&1 &
