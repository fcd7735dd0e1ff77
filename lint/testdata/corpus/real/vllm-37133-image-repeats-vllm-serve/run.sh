docker run --name glm-flash --rm --gpus all \
    --network=host --ipc=host \
    -v /data/models/GLM-4.7-Flash-AWQ:/models/GLM-4.7-Flash-AWQ \
    -v ~/.cache:/root/.cache \
    vllm/vllm-openai:latest vllm serve /models/GLM-4.7-Flash-AWQ \
    --served-model-name glm-flash \
    --trust-remote-code \
    --port 9100 \
    --gpu-memory-utilization 0.90 \
    --enable-prefix-caching \
    --max-model-len 4096 \
    --enable-auto-tool-choice --tool-call-parser hermes \
    --max_num_batched_tokens 4096 --swap_space 16
