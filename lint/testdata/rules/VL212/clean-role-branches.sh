# The caller picks the role (no default): each branch is a launch of its
# own, never two servers side by side on one host.
case "$ROLE" in
  prefill) vllm serve Qwen/Qwen3-8B --port 8100 --max-model-len 8192 & ;;
  decode) vllm serve Qwen/Qwen3-8B --port 8100 --max-model-len 32768 & ;;
esac
wait
