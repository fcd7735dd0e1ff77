# lint-version: 0.11.0
# GQA models run DCP from PR #24864 (merged 2025-10-14, after v0.11.0):
# 0.11.0 runs it only for MLA models. Qwen3-235B-A22B has 4 KV heads.
vllm serve Qwen/Qwen3-235B-A22B --tensor-parallel-size 8 --decode-context-parallel-size 2 # want VL134
