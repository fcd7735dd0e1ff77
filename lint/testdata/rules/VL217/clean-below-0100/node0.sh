# lint-version: 0.9.2
# A non-zero start rank on the API node infers hybrid LB since 0.10.0 (the v0.10.0
# tag's arg_utils.py: "Infer hybrid LB mode"; flagspans45), so 0.9.2 is below it.
export GLOO_SOCKET_IFNAME=eth0
vllm serve m -dp 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345
