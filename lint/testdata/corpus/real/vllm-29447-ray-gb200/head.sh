# vlaunch:vllm-version=0.11.2
ray start --head --num-gpus 4
vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 8 --pipeline-parallel-size 1 --max-model-len 4096 --port $api_port
