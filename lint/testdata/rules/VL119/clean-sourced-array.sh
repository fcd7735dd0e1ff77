# The common flags come from a sourced file as an array the linter cannot
# read: --data-parallel-size-local may be among them.
source ./vllm_args.sh
vllm serve Qwen/Qwen3-30B-A3B "${COMMON_ARGS[@]}" --headless \
  --data-parallel-size 4 --data-parallel-start-rank 2 --data-parallel-address 10.0.0.1
