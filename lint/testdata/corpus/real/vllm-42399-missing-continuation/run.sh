docker run -d --ipc host \
    -p "8000:8000" \
    "vllm/vllm-openai:v0.20.1" \
    "Qwen/Qwen3-30B-A3B-FP8" \
    --dtype auto \
    --max-model-len "${MAX_LEN:-20480}" \
    --gpu-memory-utilization "${GPU_UTIL:-0.92}" \
    --reasoning-parser qwen3 \
    --reasoning-config '{"reasoning_start_str":"<think>","reasoning_end_str":"</think>"}'
    --enable-prefix-caching \
    --enable-chunked-prefill \
    --trust-remote-code
