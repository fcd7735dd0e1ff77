vllm serve meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp9 # want VL104
vllm serve deepseek-ai/DeepSeek-V3 --port 8001 -dp 8 --enable-expert-parallel --all2all-backend deepep_lowlatency # want VL104
