# PowerShell-style continuations: bash sees an unclosed backquote.
docker run --gpus all `
  --ipc=host `
  vllm/vllm-openai:latest `
  --model m # want-1 VL001
# want:2 VL309
