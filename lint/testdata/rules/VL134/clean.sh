# lint-version: 0.11.1
# vLLM's recipes run DeepSeek-V3.x / Kimi-K2 at TP8 + DCP8 (MLA: dcp up to
# TP); PR #24864 ran Qwen3-235B-A22B at TP8 + DCP2 (4 KV heads: 8 // 4 = 2).
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 8 --decode-context-parallel-size 8
vllm serve Qwen/Qwen3-235B-A22B --port 8001 --tensor-parallel-size 8 --decode-context-parallel-size 2
vllm serve m --port 8002 -tp 8 -dcp 4
vllm serve deepseek-ai/DeepSeek-V3 --port 8003 -tp 8 -dcp 1
