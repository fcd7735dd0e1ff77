#!/bin/sh
# DP 4 x TP 4 with expert parallelism over two 8-NPU nodes; the same
# script runs on both nodes under Slurm.
HEAD_IP=$HEAD_ADDR
export GLOO_SOCKET_IFNAME=bond0
export HCCL_SOCKET_IFNAME=bond0

apptainer instance start -B /data/weights:/weights /images/vllm-ascend.sif engine

if [ $SLURM_NODEID == 0 ]; then
  apptainer exec instance://engine \
    vllm serve /weights/dsv32-w8a8 \
      --port 9000 \
      --data-parallel-size 4 \
      --data-parallel-size-local 2 \
      --data-parallel-address $HEAD_IP \
      --data-parallel-rpc-port 14000 \
      --tensor-parallel-size 4 \
      --enable-expert-parallel \
      --quantization ascend
fi

if [ $SLURM_NODEID == 1 ]; then
  apptainer exec instance://engine \
    vllm serve /weights/dsv32-w8a8 \
      --port 9000 \
      --headless \
      --data-parallel-size 4 \
      --data-parallel-size-local 2 \
      --data-parallel-start-rank 2 \
      --data-parallel-address $HEAD_IP \
      --data-parallel-rpc-port 14000 \
      --tensor-parallel-size 4 \
      --enable-expert-parallel \
      --quantization ascend
fi
