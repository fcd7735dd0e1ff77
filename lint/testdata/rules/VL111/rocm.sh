# lint-version: 0.7.3
# ROCm never falls back to Ray (the fallback tests for CUDA): vLLM #15217,
# "please ensure that world_size (2) is less than than max local gpu count (1)".
export HIP_VISIBLE_DEVICES=0
ray start --head --port=6379
vllm serve ./DeepSeek-V3 --trust-remote-code --tensor-parallel-size 1 --pipeline-parallel-size 2 # want VL111
