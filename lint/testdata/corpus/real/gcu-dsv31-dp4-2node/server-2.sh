set -x
pkill -9 python
pkill -9 VLLM
sleep 5
rm -rf /root/.cache/vllm/torch_compile_cache/*

dp_master_ip=$1
pretrained_model=$2
max_model_len=163840
kv_cache_dtype=fp8
block_size=64
dtype=bfloat16
dp_size=4
dp_size_local=2
dp_start_rank=2
dp_rpc_port=13345
tp_size=4
gpu_mem_util=0.9
max_num_seqs=16
cuda_graph_sizes="1 2 3 4 5 6 7 8 10 12 14 16 18 20 22 24 26 28 30 32"
max_num_batched_tokens=8192
seed=1234
MTP_TOKENS=1

HOST_IP=$(hostname -I | awk '{print $1}')
INTERFACE_NAME=$(ifconfig -a | grep -B1 "inet ${HOST_IP}[^0-9]" | head -n 1 | awk '{print $1}' | cut -d: -f1)
echo ${HOST_IP}
echo ${INTERFACE_NAME}
dt=`date +'%Y%m%d%H%M'`
name=V1Engine-S2
log_folder="./logs/${name}/${dt}_server-2"
mkdir -p "$log_folder"

PYTORCH_GCU_ALLOC_CONF=backend:topsMallocAsync \
TORCH_ECCL_ASYNC_ERROR_HANDLING=0 \
VLLM_EXECUTE_MODEL_TIMEOUT_SECONDS=999999999 \
VLLM_GCU_RANK_LOG_PATH=${log_folder} \
ECCL_IB_HCA="^=mlx5_17,mlx5_16" \
GLOO_SOCKET_IFNAME=${INTERFACE_NAME} \
VLLM_USE_V1=1 \
VLLM_GCU_ENABLE_SEQUENCE_PARALLEL=1 \
PYTORCH_EFML_BASED_GCU_CHECK=1 \
TORCHGCU_INDUCTOR_ENABLE=0 \
TORCH_ECCL_AVOID_RECORD_STREAMS=1 \
VLLM_GCU_DEEPSEEK_FUSION=1 \
TOPS_STREAM_SCHEDULE_CREDIT=4 \
"${profiler_args[@]}" \
vllm serve ${pretrained_model} \
    --headless \
    --max-model-len ${max_model_len} \
    --kv-cache-dtype ${kv_cache_dtype} \
    --block-size ${block_size} \
    --dtype ${dtype} \
    --data-parallel-size ${dp_size} \
    --data-parallel-size-local ${dp_size_local} \
    --data-parallel-start-rank ${dp_start_rank}  \
    --data-parallel-address ${dp_master_ip} \
    --data-parallel-rpc-port ${dp_rpc_port} \
    --tensor-parallel-size ${tp_size} \
    --trust-remote-code \
    --enable-expert-parallel \
    --gpu-memory-utilization ${gpu_mem_util}  \
    --additional_config '{"async_scheduling":true, "disable_dp_sampler":false, "set_cpu_affinity": true}' \
    --speculative-config '{"method": "deepseek_mtp", "num_speculative_tokens": '${MTP_TOKENS}'}' \
    --compilation_config '{"cudagraph_mode":"FULL_DECODE_ONLY","splitting_ops":[]}' \
    --max-num-seqs ${max_num_seqs}  \
    --cuda-graph-sizes ${cuda_graph_sizes} \
    --seed ${seed} \
    --no-enable-prefix-caching \
    --max-num-batched-tokens ${max_num_batched_tokens}  &> ${log_folder}/server.log &
