# lint-spec: ../../specs/custom-gpu.yaml
# The spec gives its GPU as custom figures, not a catalog id.
vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.2 --max-model-len 131072 # want VL125 VL410
