# External LB: each process is one DP rank (--data-parallel-rank sets the
# local size to 1), so one GPU per process is enough.
for i in 0 1 2 3; do
  CUDA_VISIBLE_DEVICES=$i vllm serve Qwen/Qwen3-30B-A3B --port $((8000 + i)) \
    --data-parallel-size 4 --data-parallel-rank $i --enable-expert-parallel &
done
wait
