# lint-version: 0.11.0
# DCP reuses the TP group's GPUs (vLLM PR #23734: "tp_size needs to be
# divisible by dcp_size"): 3 does not divide 8, and 8 does not divide 4.
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --decode-context-parallel-size 3 # want VL134
vllm serve m --port 8001 -tp 4 -dcp 8 # want VL134
vllm serve m --port 8002 -dcp 2 # want VL134
