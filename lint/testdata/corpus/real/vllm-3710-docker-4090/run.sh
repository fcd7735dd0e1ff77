DOCKER_BUILDKIT=1 docker build . --target vllm-openai --tag vllm/vllm-openai --build-arg MAX_JOBS=8
docker stop vllm_d
docker rm vllm_d
docker run -d --restart unless-stopped \
    --runtime nvidia --gpus all \
    --name vllm_d \
    -v /home/super/data/models:/workspace/models \
    -p 5010:8000 \
    --shm-size 10.24g \
    --ipc=host \
    -e CUDA_VISIBLE_DEVICES=0,1 \
    -e NCCL_P2P_DISABLE=1 \
    vllm/vllm-openai:latest \
    --gpu-memory-utilization 0.7 --trust-remote-code \
    --max-model-len 8192 --model /workspace/models/Qwen1.5-7B-Chat \
    --served-model-name Qwen1.5-7B-Chat \
    --tensor-parallel-size 2 --enforce-eager
docker logs -f vllm_d
