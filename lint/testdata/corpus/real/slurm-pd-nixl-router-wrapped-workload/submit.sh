#!/bin/bash
set -euo pipefail
# Submit a P/D deployment as one Slurm job: the per-node workload is built
# here as text, passed through the environment and run on every node.
N_PREFILL=$N_PREFILL
N_DECODE=$N_DECODE
MODEL=$MODEL
IMAGE=$IMAGE
ARGS_FILE=$ARGS_FILE

P_NIXL_PORT=5600
D_NIXL_PORT=5700
ROUTER_PORT=8000
P_PORT=8001
D_PORT=8002
P_RPC=13345
D_RPC=13346

workload=$(cat <<EOF
#!/bin/bash
set -euo pipefail
P_HEAD=\$P_HEAD
D_HEAD=\$D_HEAD
export UCX_TLS=rc_x,rc,cuda_copy,cuda_ipc
export UCX_NET_DEVICES=mlx5_0:1
source "$ARGS_FILE"

me=\$(hostname)
if (( SLURM_PROCID == 0 )); then
    VLLM_NIXL_SIDE_CHANNEL_HOST=\$me \
    VLLM_NIXL_SIDE_CHANNEL_PORT=$P_NIXL_PORT \
    vllm serve "$MODEL" "\${COMMON_ARGS[@]}" \
        --host \$me \
        --port $P_PORT \
        --data-parallel-size $N_PREFILL \
        --data-parallel-address \$me \
        --data-parallel-rpc-port $P_RPC \
        --api-server-count 1 \
        --kv-transfer-config \
            '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_load_failure_policy":"fail"}' \
        &
    until curl -fs "http://\$D_HEAD:$D_PORT/health" >/dev/null; do sleep 5; done
    vllm-router --policy consistent_hash --vllm-pd-disaggregation \
        --prefill http://\$P_HEAD:$P_PORT --decode http://\$D_HEAD:$D_PORT \
        --host \$P_HEAD --port $ROUTER_PORT --intra-node-data-parallel-size 1
elif (( SLURM_PROCID < $N_PREFILL )); then
    VLLM_NIXL_SIDE_CHANNEL_HOST=\$me \
    VLLM_NIXL_SIDE_CHANNEL_PORT=$P_NIXL_PORT \
    vllm serve "$MODEL" "\${COMMON_ARGS[@]}" \
        --headless \
        --data-parallel-size $N_PREFILL \
        --data-parallel-start-rank \$SLURM_PROCID \
        --data-parallel-address \$P_HEAD \
        --data-parallel-rpc-port $P_RPC \
        --kv-transfer-config \
            '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_load_failure_policy":"fail"}'
elif (( SLURM_PROCID == N_PREFILL )); then
    VLLM_NIXL_SIDE_CHANNEL_HOST=\$me \
    VLLM_NIXL_SIDE_CHANNEL_PORT=$D_NIXL_PORT \
    vllm serve "$MODEL" "\${COMMON_ARGS[@]}" \
        --host \$me \
        --port $D_PORT \
        --data-parallel-size $N_DECODE \
        --data-parallel-address \$D_HEAD \
        --data-parallel-rpc-port $D_RPC \
        --api-server-count 1 \
        --kv-transfer-config \
            '{"kv_connector":"NixlConnector","kv_role":"kv_consumer","kv_load_failure_policy":"fail"}'
else
    VLLM_NIXL_SIDE_CHANNEL_HOST=\$me \
    VLLM_NIXL_SIDE_CHANNEL_PORT=$D_NIXL_PORT \
    vllm serve "$MODEL" "\${COMMON_ARGS[@]}" \
        --headless \
        --data-parallel-size $N_DECODE \
        --data-parallel-start-rank \$(( SLURM_PROCID - $N_PREFILL )) \
        --data-parallel-address \$D_HEAD \
        --data-parallel-rpc-port $D_RPC \
        --kv-transfer-config \
            '{"kv_connector":"NixlConnector","kv_role":"kv_consumer","kv_load_failure_policy":"fail"}'
fi
EOF
)

N=$((N_PREFILL + N_DECODE))
batch=$(cat <<EOF
set -euo pipefail
nodes=(\$(scontrol show hostnames "\$SLURM_JOB_NODELIST"))
P_HEAD="\${nodes[0]}" D_HEAD="\${nodes[$N_PREFILL]}" \
srun --nodes=$N --ntasks=$N --ntasks-per-node=1 --container-image=$IMAGE \
    bash -lc "\$PD_WORKLOAD"
EOF
)

PD_WORKLOAD="$workload" PD_BATCH="$batch" \
sbatch --nodes=$N --ntasks-per-node=1 --exclusive --segment=$N \
    --wrap 'exec bash -lc "$PD_BATCH"'
