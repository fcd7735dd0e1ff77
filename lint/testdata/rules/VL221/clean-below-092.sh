# lint-version: 0.9.1
# A per-rank launcher: the second rank is off by one and repeats rank 1.
export GLOO_SOCKET_IFNAME=eth0
for i in 0 1; do
  CUDA_VISIBLE_DEVICES=$i vllm serve m --enable-expert-parallel --data-parallel-rank $((i / 2 + 1)) --data-parallel-size 2 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port $((8000 + i)) &
done
vllm serve m --enable-expert-parallel --data-parallel-rank 2 --data-parallel-size 2 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port 8009
# want:5 VL119 VL205 VL102
# want:7 VL205 VL102
# 0.9.1: below 0.9.2, the first tag whose arg_utils.py has --data-parallel-rank (flagspans45).
