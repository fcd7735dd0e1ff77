# A server started after the if runs alongside the branch's server.
if [ "$ROLE" = prefill ]; then
  vllm serve Qwen/Qwen3-8B --port 8000 &
fi
vllm serve Qwen/Qwen3-8B --port 8000 & # want VL212
wait
