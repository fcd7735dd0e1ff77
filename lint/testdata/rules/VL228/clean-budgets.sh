# Two engines on one GPU whose budgets add up to 0.9 fit.
CUDA_VISIBLE_DEVICES=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 --gpu-memory-utilization 0.45 &
CUDA_VISIBLE_DEVICES=0 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001 --gpu-memory-utilization 0.45 &
wait
