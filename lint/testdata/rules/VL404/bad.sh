# lint-spec: ../../specs/two-nodes-llama8b.yaml
export GLOO_SOCKET_IFNAME=eth0 # want VL404
vllm serve meta-llama/Llama-3.1-8B-Instruct
