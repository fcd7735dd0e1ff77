export NCCL_SOCKET_IFNAME=ib0 # want VL308
apptainer exec --nv --cleanenv --env HF_HOME=/hf vllm.sif vllm serve meta-llama/Llama-3.1-8B-Instruct
