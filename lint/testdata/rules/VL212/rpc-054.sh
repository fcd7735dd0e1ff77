# lint-version: 0.5.4
# vLLM #7196: two OpenAI servers on one host, different API ports, same
# fixed frontend RPC port 5570.
export CUDA_VISIBLE_DEVICES=1
nohup python -m vllm.entrypoints.openai.api_server --model /srv/a --port 8000 > a.log 2>&1 &
export CUDA_VISIBLE_DEVICES=3
nohup python -m vllm.entrypoints.openai.api_server --model /srv/b --port 8003 > b.log 2>&1 & # want VL212
