#!/bin/sh
# Run as ./bad.sh (or sh bad.sh): on Debian/Ubuntu sh is dash, where `==`
# in [ ] is "unexpected operator" and [[ is "[[: not found".
if [ "$NODE_RANK" == 0 ]; then # want VL311
  vllm serve Qwen/Qwen3-8B --port 8000
elif [[ "$NODE_RANK" = 1 ]]; then # want VL311
  vllm serve Qwen/Qwen3-8B --port 8001
fi
if test "$ROLE" == prefill; then # want VL311
  vllm serve Qwen/Qwen3-8B --port 8002
fi
