# lint-version: 0.10.1
# Before 0.11.1 vLLM falls back to the Ray executor on CUDA by itself.
ray start --head --num-gpus 4
vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 8
