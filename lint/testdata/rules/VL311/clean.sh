#!/bin/sh
# POSIX tests, and bashisms that decide no launch: nothing to report.
if [ "$NODE_RANK" = 0 ]; then
  vllm serve Qwen/Qwen3-8B --port 8000
elif [ "$NODE_RANK" -eq 1 ]; then
  vllm serve Qwen/Qwen3-8B --port 8001
fi
if [ "$DEBUG" == 1 ]; then
  echo debugging
fi
