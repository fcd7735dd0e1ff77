# No space before the backslash: the model and --host become one word.
export MODEL_PATH=Qwen/Qwen3-8B
vllm serve ${MODEL_PATH}\
--host 0.0.0.0 \
--port 8000
# want-2 VL124
