vllm serve meta-llama/Llama-3.1-405B-Instruct -tp 8 -pp 2 --nnodes 2 --node-rank 0 \
  --master-addr 10.8.0.1 --master-port 29501 --distributed-executor-backend mp
