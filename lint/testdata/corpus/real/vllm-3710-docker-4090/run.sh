docker build . --target vllm-openai --tag local/vllm
docker rm -f chat7b
docker run -d --name chat7b \
    --runtime nvidia --gpus all \
    -v /srv/weights:/weights \
    -p 9030:8000 \
    --ipc=host \
    --shm-size 8g \
    -e CUDA_VISIBLE_DEVICES=2,3 \
    -e NCCL_P2P_DISABLE=1 \
    vllm/vllm-openai:latest \
    --model /weights/chat-7b \
    --tensor-parallel-size 2 --enforce-eager
