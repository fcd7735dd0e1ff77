vllm serve /models/DeepSeek-R1 --trust-remote-code --tensor-parallel-size 8 \
  --kv-cache-dtype fp8 --max-model-len 32768 --port 8000
