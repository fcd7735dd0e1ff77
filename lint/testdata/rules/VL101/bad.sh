vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-paralel-size 2 --max_model_len=8192 --gpu-memory-utilisation 0.9 # want VL101 VL101
# Wrappers whose options name an environment called vllm
conda run -n vllm vllm serve m --tensor-parallel-sise 2 # want VL101
uv run --with vllm vllm serve m --tensor-parallel-sise 2 # want VL101
