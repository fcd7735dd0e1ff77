CUDA_VISIBLE_DEVICES=0,1 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 &
CUDA_VISIBLE_DEVICES=1,2 vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001 & # want VL228
wait
