vllm serve /data/cache/huggingface/Qwen/Qwen3-4B \
    --max-model-len 8192 \
    --enable-reasoning \
    --reasoning-parser=deepseek_r1 \
    --host 0.0.0.0 --port 40100 \
    --served-model-name qwen3-4b
