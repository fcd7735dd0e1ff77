# A follower pointed at $POD_IP, its own pod.
export GLOO_SOCKET_IFNAME=eth0
vllm serve m --headless --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 --data-parallel-address $POD_IP # want VL206
