# lint-version: 0.22.1
# --tensor-parallel-size has a default (1), so an empty value is int(""): an error.
vllm serve Qwen/Qwen3-8B --tensor-parallel-size="" # want VL103
