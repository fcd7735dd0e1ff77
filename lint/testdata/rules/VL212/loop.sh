for i in 0 1; do
  CUDA_VISIBLE_DEVICES=$i vllm serve meta-llama/Llama-3.1-8B-Instruct &
done
# want-2 VL212
wait
