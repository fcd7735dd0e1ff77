# lint-version: 0.8.5
# a server and its router on one host; the router names a port nothing listens on
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8000 &
vllm-router --worker-urls http://localhost:8001 --port 30000 # want VL234
wait
