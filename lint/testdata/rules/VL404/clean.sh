# lint-spec: ../../specs/two-nodes-llama8b.yaml
export GLOO_SOCKET_IFNAME=ens10f0
vllm serve meta-llama/Llama-3.1-8B-Instruct
