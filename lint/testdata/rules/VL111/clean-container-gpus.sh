docker run --gpus all -e NVIDIA_VISIBLE_DEVICES=0,1 --ipc=host vllm/vllm-openai:v0.10.1 --model Qwen/Qwen3-8B --tensor-parallel-size 4
docker run --gpus 4 --ipc=host vllm/vllm-openai:v0.10.1 --model Qwen/Qwen3-8B --tensor-parallel-size 4
