NCCL_SOCKET_IFNAME=eth0
export NCCL_SOCKET_IFNAME
vllm serve meta-llama/Llama-3.1-8B-Instruct
# A variable the script expands into the command line is a script variable,
# whatever its prefix (GLOO_TIMEOUT is no Gloo setting).
GLOO_TIMEOUT=30
vllm serve m --gloo-timeout-seconds "$GLOO_TIMEOUT" --port 8011
