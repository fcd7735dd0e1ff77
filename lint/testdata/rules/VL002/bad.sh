# vlaunch:disable=VL999 not a rule # want VL002
vllm serve meta-llama/Llama-3.1-8B-Instruct
# vlaunch:disable=VL114
# want-1 VL002 VL003
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001
