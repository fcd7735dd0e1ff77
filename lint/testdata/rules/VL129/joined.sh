# lint-version: 0.34.0
vllm serve Qwen/Qwen3-8B --api_key=sk-456 --port 8000 # want VL129
