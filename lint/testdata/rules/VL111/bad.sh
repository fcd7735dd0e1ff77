vllm serve meta-llama/Llama-3.1-405B --tensor-parallel-size 16 # want VL111
CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve deepseek-ai/DeepSeek-V3 --port 8001 -dp 8 --enable-expert-parallel # want VL111
