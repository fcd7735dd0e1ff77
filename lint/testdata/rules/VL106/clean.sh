vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --max-model-len 8192
vllm serve m --middleware a.B --middleware c.D
vllm serve m -tp 4 --tensor-parallel-size=4
