# PR #24864's checks (vllm/config/model.py): TP must exceed the KV heads and
# dcp <= TP // KV heads. Llama-3.1-70B has 8 KV heads, so TP 8 leaves
# nothing to split; Qwen3-235B-A22B has 4, so TP 8 allows dcp 2, not 4.
# Linted for the newest release (no version stated).
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8 -dcp 2 # want VL134
vllm serve /models/Qwen/Qwen3-235B-A22B-FP8 --port 8001 -tp 8 -dcp 4 # want VL134
vllm serve /data/ckpt --served-model-name Llama-3.1-70B-Instruct --port 8002 -tp 8 -dcp 2 # want VL134
