# lint-version: 0.11.0
# A per-rank launcher: the second rank is off by one and repeats rank 1.
export GLOO_SOCKET_IFNAME=eth0
for i in 0 1; do
  CUDA_VISIBLE_DEVICES=$i vllm serve m --enable-expert-parallel --data-parallel-rank $((i / 2 + 1)) --data-parallel-size 2 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port $((8000 + i)) & # want VL221
done
vllm serve m --enable-expert-parallel --data-parallel-rank 2 --data-parallel-size 2 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port 8009 # want VL221
