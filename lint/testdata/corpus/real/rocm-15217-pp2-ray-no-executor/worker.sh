export HIP_VISIBLE_DEVICES=0
singularity exec --bind /data:/data vllm-rocm.sif ray start --address=10.20.0.11:6379
