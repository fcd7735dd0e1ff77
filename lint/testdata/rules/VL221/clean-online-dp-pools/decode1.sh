# lint-version: 0.23.0
python launch_online_dp.py --dp-size 8 --tp-size 4 --dp-size-local 4 --dp-rank-start 4 --dp-address 10.0.0.3 --dp-rpc-port 16600 --vllm-start-port 9900
