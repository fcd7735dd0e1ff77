# lint-version: 0.11.2
ray start --address=10.0.0.1:6379 --num-gpus 8
