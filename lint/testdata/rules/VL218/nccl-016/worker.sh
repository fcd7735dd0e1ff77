# lint-version: 0.16.0
export GLOO_SOCKET_IFNAME=eth0
ray start --address=10.0.0.1:6379 --num-gpus 8
