#!/bin/sh
# Node 0 of two A3 hosts: one DP rank of TP16 per host.
ifname="ens5f1"
node_addr="10.20.0.11"

export HCCL_IF_IP=$node_addr
export HCCL_SOCKET_IFNAME=$ifname
export GLOO_SOCKET_IFNAME=$ifname
export TP_SOCKET_IFNAME=$ifname
export HCCL_BUFFSIZE=512

vllm serve /srv/weights/sparse-moe-bf16 \
--port 9200 \
--tensor-parallel-size 16 \
--data-parallel-size 2 \
--data-parallel-size-local 1 \
--data-parallel-address $node_addr \
--data-parallel-rpc-port 14500 \
--enable-expert-parallel \
--max-model-len 8192 \
--trust-remote-code \
--additional-config '{"torchair_graph_config":{"enabled":true}}'
