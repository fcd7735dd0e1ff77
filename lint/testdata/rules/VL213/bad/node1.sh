export GLOO_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME=eth0
vllm serve meta-llama/Llama-3.1-405B -tp 8 -pp 2 --nnodes 2 --master-addr 10.0.0.1 --master-port 29501 --node-rank 0 --headless # want VL213
