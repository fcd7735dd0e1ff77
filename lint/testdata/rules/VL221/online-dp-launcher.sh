# lint-version: 0.23.0
# vllm-ascend's launch_online_dp.py starts ranks dp-rank-start .. +local-1:
# 1 and 2 here, and rank 2 is outside --dp-size 2.
python launch_online_dp.py --dp-size 2 --tp-size 16 --dp-size-local 2 --dp-rank-start 1 --dp-address 10.0.0.1 --dp-rpc-port 16591 --vllm-start-port 9081 # want VL221
