docker run --gpus '"device=0,1"' --ipc=host vllm/vllm-openai:v0.10.1 --model Qwen/Qwen3-8B --tensor-parallel-size 4 # want VL111
docker run --runtime nvidia -e NVIDIA_VISIBLE_DEVICES=2,3 --ipc=host vllm/vllm-openai:v0.10.1 --model Qwen/Qwen3-8B -tp 4 # want VL111
