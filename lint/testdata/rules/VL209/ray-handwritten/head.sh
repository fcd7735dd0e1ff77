# lint-version: 0.10.1
# hand-written: a Ray head and a worker, then `vllm serve` with PP 2 and no
# executor flag; nothing says how many GPUs the head has, and 0.10.1 falls
# back to Ray when the engine is larger than the node (lint/sonsal shape)
ray start --head --port=6379 --node-ip-address=10.0.0.1
vllm serve Qwen/Qwen2.5-0.5B-Instruct --pipeline-parallel-size 2 # want VL209
