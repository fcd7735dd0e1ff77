# A follower pointed at `hostname -I`, its own address.
export GLOO_SOCKET_IFNAME=eth0
vllm serve m --headless --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 --data-parallel-address $(hostname -I | awk '{print $1}') # want VL206
