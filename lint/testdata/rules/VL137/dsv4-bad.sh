# lint-version: 0.24.0
# DeepSeek-V4's compressed MLA caches take only 256-token kernel blocks
# (v0.24.0 models/deepseek_v4/sparse_mla.py): "No common block size for 64."
vllm serve deepseek-ai/DeepSeek-V4-Flash -tp 4 --kv-cache-dtype fp8 --block-size 64 # want VL137
