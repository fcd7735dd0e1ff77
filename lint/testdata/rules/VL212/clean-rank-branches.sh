# One script for every node: the rank picks the branch, so the two servers
# never run on one host together, however each is started.
NODE_RANK=${NODE_RANK:-0}
if [ "$NODE_RANK" -eq 0 ]; then
  vllm serve Qwen/Qwen3-30B-A3B --port 8000 --max-model-len 8192 &
elif [ "$NODE_RANK" -eq 1 ]; then
  vllm serve Qwen/Qwen3-30B-A3B --port 8000 --max-model-len 32768 &
fi
wait
