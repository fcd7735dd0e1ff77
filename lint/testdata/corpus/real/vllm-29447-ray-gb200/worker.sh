# vlaunch:vllm-version=0.11.2
ray start --address='<HEAD>:<RAY_PORT>' --num-gpus 4
