# lint-version: 0.11.2
# From 0.11.1 a running Ray cluster is not enough: without
# --distributed-executor-backend ray, TP x PP above the node's GPUs is refused
# (vLLM #29447: 2 x 4 GB200, TP 8).
ray start --head --num-gpus 4
vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 8 --port 8000 # want VL111
