# vlaunch:vllm-version=0.4.2
cd /srv/weights ; CUDA_VISIBLE_DEVICES=4,5,6,7 python -m vllm.entrypoints.openai.api_server --model lite-moe-chat --gpu-memory-utilization 0.99 --tensor-parallel-size 4 --trust-remote-code --port 9040
