# Two engines share GPU 0 with a budget the script computes at run time
# (4 GB of the device each, as Dynamo's disagg_same_gpu.sh does): the
# linter cannot add them up, and the release default is not what they use.
TOTAL_GB=$(python3 -c "import torch; print(torch.cuda.mem_get_info()[1] / 1024**3)")
FRACTION=$(python3 -c "print(f'{4 / $TOTAL_GB:.3f}')")
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-0.6B --port 8100 --gpu-memory-utilization ${FRACTION} &
CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-0.6B --port 8200 --gpu-memory-utilization ${FRACTION} &
wait
