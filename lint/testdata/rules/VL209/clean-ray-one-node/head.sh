# lint-version: 0.10.1
# the head's two visible GPUs hold PP 2: mp on this node, no Ray span
ray start --head --port=6379 --node-ip-address=10.0.0.1
CUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen2.5-0.5B-Instruct --pipeline-parallel-size 2
