# The follower names node 0 ($node0_ip), and the primary may use its own.
local_ip="<LOCAL_IP>"
node0_ip="<NODE0_IP>"
export HCCL_IF_IP=$local_ip
export GLOO_SOCKET_IFNAME=eth0
vllm serve m --headless --data-parallel-size 2 --data-parallel-size-local 1 \
  --data-parallel-start-rank 1 --data-parallel-rpc-port 13389 \
  --data-parallel-address $node0_ip
