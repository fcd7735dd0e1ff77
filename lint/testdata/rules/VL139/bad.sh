# ModelConfig.verify_with_parallel_config (v0.24.0 vllm/config/model.py:1163-1170):
# "Total number of attention heads (32) must be divisible by tensor parallel size (3)".
vllm serve Qwen/Qwen3-8B --tensor-parallel-size 3 # want VL139
# Qwen3-14B: 40 query heads split over 5 ranks; its 8 KV heads do not.
vllm serve Qwen/Qwen3-14B --port 8001 -tp 5 # want VL139
# known by --served-model-name only: a warning
vllm serve /data/ckpt --port 8002 --served-model-name Qwen3-8B -tp 6 # want VL139
