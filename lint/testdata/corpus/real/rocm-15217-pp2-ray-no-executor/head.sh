# one AMD GPU per node; the Ray cluster is started first on both nodes
export HIP_VISIBLE_DEVICES=0
singularity exec --bind /data:/data vllm-rocm.sif ray start --head --port=6379
singularity exec --bind /data:/data vllm-rocm.sif vllm serve ./DeepSeek-V3 --trust-remote-code --tensor-parallel-size 1 --pipeline-parallel-size 2
