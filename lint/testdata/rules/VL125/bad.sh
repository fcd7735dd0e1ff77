# lint-spec: ../../specs/two-nodes-llama8b.yaml
# VL410 too: the spec writes workload.max_model_len 16384 (qa45c F2).
vllm serve meta-llama/Llama-3.1-8B-Instruct --gpu-memory-utilization 0.2 --max-model-len 131072 # want VL125 VL410
