# lint-version: 0.11.0
export GLOO_SOCKET_IFNAME=eth0
for i in 0 1; do
  CUDA_VISIBLE_DEVICES=$i vllm serve m --enable-expert-parallel --data-parallel-rank $i --data-parallel-size 2 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port $((8000 + i)) &
done
