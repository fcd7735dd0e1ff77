# lint-version: 0.22.1
# An empty value for a number flag whose default is None is "not set" (vLLM's
# optional_type), as `--kv-cache-memory-bytes=${X-}` in a container whose env lacks X
# gives (llm-d DeepSeek-V4 guide).
vllm serve deepseek-ai/DeepSeek-V4-Pro --max-num-seqs 512 --kv-cache-memory-bytes=""
