# the same unexported assignment at the same place in two files: two findings
NCCL_DEBUG=INFO # want VL123
vllm serve m
