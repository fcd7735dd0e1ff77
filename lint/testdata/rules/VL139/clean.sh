# Sizes that split the heads, an MLA model (no KV heads to split), a
# pipeline size that does not divide the layers (vLLM splits them unevenly
# from v0.5.1, get_pp_indices) and a model lint does not know (not checked).
vllm serve Qwen/Qwen3-8B --tensor-parallel-size 8
vllm serve deepseek-ai/DeepSeek-V3 --port 8001 -tp 8
vllm serve meta-llama/Llama-3.1-70B-Instruct --port 8002 -tp 2 --pipeline-parallel-size 3
vllm serve my-org/my-model --port 8003 -tp 3
