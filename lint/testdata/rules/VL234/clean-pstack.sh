# production-stack's router (its own CLI, also installed as vllm-router) in front of a server beside it
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8100 &
vllm-router --port 30080 --service-discovery static --static-backends "http://localhost:8100" --static-models "meta-llama/Llama-3.1-8B-Instruct" --routing-logic roundrobin
wait
