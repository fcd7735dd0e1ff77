ray start --address=10.2.0.1:6379 --num-gpus=8
