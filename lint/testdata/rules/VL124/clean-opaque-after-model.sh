# The model comes first even though the flag variable after it was
# assigned earlier in the file (vllm-project/recipes Llama3.3-70B, Sept 2025).
ASYNC_FLAG="--async-scheduling"
if [ "$GPU" = "B200" ]; then DTYPE="FP4"; else DTYPE="FP8"; ASYNC_FLAG=""; fi
vllm serve nvidia/Llama-3.3-70B-Instruct-$DTYPE \
  --host 0.0.0.0 \
  ${ASYNC_FLAG} \
  --tensor-parallel-size 1
