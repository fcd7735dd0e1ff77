# lint-version: 0.8.5
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 &
vllm-router --worker-urls http://localhost:8000 --port 30000
wait
