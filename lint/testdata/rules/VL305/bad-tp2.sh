docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.10.1 meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 2 # want VL305
