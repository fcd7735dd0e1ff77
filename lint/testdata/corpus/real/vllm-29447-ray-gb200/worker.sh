# vlaunch:vllm-version=0.11.2
ray start --address='<IP>:<PORT>' --num-gpus 4
