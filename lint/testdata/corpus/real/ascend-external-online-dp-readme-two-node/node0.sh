cd examples/external_online_dp
# running DP4 TP4 in two nodes with 8 NPUs each
python launch_online_dp.py --dp-size 4 --tp-size 4 --dp-size-local 2 --dp-rank-start 0 --dp-address x.x.x.x --dp-rpc-port 12342
