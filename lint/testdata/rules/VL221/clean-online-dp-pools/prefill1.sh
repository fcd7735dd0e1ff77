# lint-version: 0.23.0
python launch_online_dp.py --dp-size 2 --tp-size 16 --dp-size-local 1 --dp-rank-start 1 --dp-address 10.0.0.1 --dp-rpc-port 16591 --vllm-start-port 9081
