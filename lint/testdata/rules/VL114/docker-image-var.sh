# The image comes from the caller ($IMAGE); the vLLM serve flags after it
# say its entrypoint is vLLM's server, so the launch is checked (issue 25).
docker run --gpus all --ipc=host -p 8000:8000 "$IMAGE" \
  --model meta-llama/Llama-3.1-8B-Instruct \
  --tensor-parallel-size 2 \
  --gpu-memory-utilization 0.99 # want VL114
