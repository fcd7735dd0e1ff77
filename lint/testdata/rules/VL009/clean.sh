# Variables are not placeholders; a redirection stays a redirection.
vllm serve "$MODEL" --data-parallel-address "$HEAD_IP" --port 8000 </dev/null >serve.log 2>&1
