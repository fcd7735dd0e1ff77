# lint-version: 0.20.0
# GLM-5 is DeepSeek sparse attention: from vLLM 0.18.0 a user --block-size
# goes to the backend selector, and FLASHMLA_SPARSE (and the indexer cache)
# take only 64-token kernel blocks (v0.20.0 flashmla_sparse.py, indexer.py):
# "No valid attention backend found".
vllm serve zai-org/GLM-5-FP8 -tp 8 --block-size 16 # want VL137
