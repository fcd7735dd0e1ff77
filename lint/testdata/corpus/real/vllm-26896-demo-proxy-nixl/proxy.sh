python examples/online_serving/disaggregated_serving/disagg_proxy_demo.py --model /home/Qwen3-32B/ --prefill localhost:8100 --decode localhost:8200
