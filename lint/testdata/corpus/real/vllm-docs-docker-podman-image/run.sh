# Source: https://github.com/vllm-project/vllm/blob/0487d5c235baf6fdfb5ad1e0d97449ba548c68a0/docs/getting_started/installation/gpu.cuda.inc.md
# ("pre-built-images", commit 0487d5c2, Apache-2.0): the two commands, verbatim
docker run --runtime nvidia --gpus all \
    -v ~/.cache/huggingface:/root/.cache/huggingface \
    --env "HF_TOKEN=$HF_TOKEN" \
    -p 8000:8000 \
    --ipc=host \
    vllm/vllm-openai:latest \
    --model Qwen/Qwen3-0.6B

podman run --device nvidia.com/gpu=all \
-v ~/.cache/huggingface:/root/.cache/huggingface \
--env "HF_TOKEN=$HF_TOKEN" \
-p 8000:8000 \
--ipc=host \
docker.io/vllm/vllm-openai:latest \
--model Qwen/Qwen3-0.6B
