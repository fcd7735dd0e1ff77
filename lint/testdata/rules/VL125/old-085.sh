# lint-spec: ../../specs/two-nodes-llama8b.yaml
# lint-version: 0.8.5
vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.2 --max-model-len 131072 # want VL125 VL410
