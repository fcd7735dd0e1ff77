#!/bin/sh

nic_name="eno0"
local_ip=$(hostname -I | awk '{print $1}')
node0_ip=$MASTER_ADDR

export MODEL_NAME=DeepSeek-V3.2

export MODEL_DIR=/mnt/nvme0n1/model/DeepSeek-V3.2-w8a8-mtp-QuaRot

export VLLM_IMG=vllm-ascend_main.sif

export HCCL_OP_EXPANSION_MODE="AIV"
export HCCL_IF_IP=$local_ip
export GLOO_SOCKET_IFNAME=$nic_name
export TP_SOCKET_IFNAME=$nic_name
export HCCL_SOCKET_IFNAME=$nic_name
export OMP_PROC_BIND=false
export OMP_NUM_THREADS=10
export HCCL_BUFFSIZE=200
export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True
export VLLM_ASCEND_ENABLE_MLAPO=1
export HCCL_INTRA_PCIE_ENABLE=1
export HCCL_INTRA_ROCE_ENABLE=0


apptainer instance start --no-home --writable-tmpfs \
        -B /usr/local/sbin:/usr/local/sbin \
        -B /usr/local/Ascend/driver:/usr/local/Ascend/driver \
        -B $MODEL_DIR:/model \
        $VLLM_IMG app-instance

if [ $SLURM_NODEID == 0 ]; then
  apptainer exec instance://app-instance \
        vllm serve \
        /model \
        --served-model-name "$MODEL_NAME" \
        --host 0.0.0.0 \
        --port 11025 \
        --data-parallel-size 4 \
        --data-parallel-size-local 2 \
        --data-parallel-address $node0_ip \
        --data-parallel-rpc-port 13389 \
        --tensor-parallel-size 4 \
        --quantization ascend \
        --seed 1024 \
        --enable-expert-parallel \
        --max-num-seqs 20 \
        --max-model-len 16384 \
        --max-num-batched-tokens 4096 \
        --trust-remote-code \
        --no-enable-prefix-caching \
        --gpu-memory-utilization 0.94
fi

if [ $SLURM_NODEID == 1 ]; then
  apptainer exec instance://app-instance \
        vllm serve \
        /model \
        --served-model-name "$MODEL_NAME" \
        --host 0.0.0.0 \
        --port 11025 \
        --headless \
        --data-parallel-size 4 \
        --data-parallel-size-local 2 \
        --data-parallel-start-rank 2 \
        --data-parallel-address $node0_ip \
        --data-parallel-rpc-port 13389 \
        --tensor-parallel-size 4 \
        --quantization ascend \
        --seed 1024 \
        --enable-expert-parallel \
        --max-num-seqs 20 \
        --max-model-len 16384 \
        --max-num-batched-tokens 4096 \
        --trust-remote-code \
        --no-enable-prefix-caching \
        --gpu-memory-utilization 0.94
fi
