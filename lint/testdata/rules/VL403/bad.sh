# lint-spec: ../../specs/two-nodes-llama8b.yaml
export VLLM_HOST_IP=10.9.9.9 # want VL403
vllm serve meta-llama/Llama-3.1-8B-Instruct
