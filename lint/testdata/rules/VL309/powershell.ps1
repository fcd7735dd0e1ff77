docker run --gpus all `
  --ipc=host `
  vllm/vllm-openai:latest --model m
# want-3 VL309
