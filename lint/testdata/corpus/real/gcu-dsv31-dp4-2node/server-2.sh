# GCU host: DP 4 over two hosts (2 local ranks), TP 4 each.
leader_addr=$1
weights=$2
dp=4
dp_local=2
first_rank=2
tp=4
rpc_port=15000
graph_sizes="1 2 4 8 16"

nic=$(ip -o -4 route show to default | awk '{print $5}')

GLOO_SOCKET_IFNAME=${nic} \
VLLM_USE_V1=1 \
ECCL_ASYNC_ERROR_HANDLING=0 \
"${trace_args[@]}" \
vllm serve ${weights} \
    --headless \
    --tensor-parallel-size ${tp} \
    --data-parallel-size ${dp} \
    --data-parallel-size-local ${dp_local} \
    --data-parallel-start-rank ${first_rank} \
    --data-parallel-address ${leader_addr} \
    --data-parallel-rpc-port ${rpc_port} \
    --enable-expert-parallel \
    --additional_config '{"async_scheduling":true}' \
    --compilation_config '{"cudagraph_mode":"FULL_DECODE_ONLY"}' \
    --cuda-graph-sizes ${graph_sizes} \
    --port 9500 &> server.log &
