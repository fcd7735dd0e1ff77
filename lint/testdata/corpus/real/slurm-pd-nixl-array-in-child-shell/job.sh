#!/bin/bash
#SBATCH --job-name=pd-eval
#SBATCH --nodes=6
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=4

hosts=($(scontrol show hostnames "$SLURM_JOB_NODELIST"))
export PREFILL_NODES="$(IFS=,; echo "${hosts[*]:0:2}")"
export DECODE_NODES="$(IFS=,; echo "${hosts[*]:2:4}")"

# prefill: DP 2 x TP 4, one rank per node
srun --overlap --nodelist="${PREFILL_NODES}" --nodes=2 --ntasks=2 --container-image=vllm:img --output=logs/prefill-%j.log bash -c 'export VLLM_NIXL_SIDE_CHANNEL_HOST=$(hostname)
export VLLM_NIXL_SIDE_CHANNEL_PORT=5600
exec bash -lc '"'"'
    if [ "$SLURM_NODEID" = "0" ]; then
        vllm serve /models/ckpt --port 8001 --tensor-parallel-size 4 --served-model-name policy --max-model-len 65536 --kv-transfer-config '"'"'"'"'"'"'"'"'{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_load_failure_policy":"fail"}'"'"'"'"'"'"'"'"' --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-address ${hosts[0]} --data-parallel-rpc-port 13345
    else
        vllm serve /models/ckpt --port 8001 --tensor-parallel-size 4 --served-model-name policy --max-model-len 65536 --kv-transfer-config '"'"'"'"'"'"'"'"'{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_load_failure_policy":"fail"}'"'"'"'"'"'"'"'"' --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-address ${hosts[0]} --data-parallel-rpc-port 13345 --headless --data-parallel-start-rank $(( SLURM_NODEID * 1 ))
    fi
'"'"'' &

# decode: DP 4 x TP 4, one rank per node
env UCX_TLS=rc,cuda_copy srun --overlap --nodelist="${DECODE_NODES}" --nodes=4 --ntasks=4 --container-image=vllm:img --output=logs/decode-%j.log bash -c 'export VLLM_NIXL_SIDE_CHANNEL_HOST=$(hostname)
export VLLM_NIXL_SIDE_CHANNEL_PORT=5601
exec bash -lc '"'"'
    if [ "$SLURM_NODEID" = "0" ]; then
        vllm serve /models/ckpt --port 8002 --tensor-parallel-size 4 --served-model-name policy --kv-transfer-config '"'"'"'"'"'"'"'"'{"kv_connector":"NixlConnector","kv_role":"kv_consumer","kv_load_failure_policy":"fail"}'"'"'"'"'"'"'"'"' --data-parallel-size 4 --data-parallel-size-local 1 --data-parallel-address ${hosts[2]} --data-parallel-rpc-port 13346
    else
        vllm serve /models/ckpt --port 8002 --tensor-parallel-size 4 --served-model-name policy --kv-transfer-config '"'"'"'"'"'"'"'"'{"kv_connector":"NixlConnector","kv_role":"kv_consumer","kv_load_failure_policy":"fail"}'"'"'"'"'"'"'"'"' --data-parallel-size 4 --data-parallel-size-local 1 --data-parallel-address ${hosts[2]} --data-parallel-rpc-port 13346 --headless --data-parallel-start-rank $(( SLURM_NODEID * 1 ))
    fi
'"'"'' &

# router in front of both pools
srun --overlap --nodelist="${hosts[0]}" --nodes=1 --ntasks=1 --container-image=vllm:img vllm-router --vllm-pd-disaggregation --prefill "http://${hosts[0]}:8001" --decode "http://${hosts[2]}:8002" --host 0.0.0.0 --port 8000 --intra-node-data-parallel-size 1 &
wait
