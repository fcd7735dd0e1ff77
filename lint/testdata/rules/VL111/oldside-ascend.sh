# Ascend scripts (HCCL_* variables) are assumed to run on 16-NPU Atlas A3
# nodes, where vllm-ascend guides run TP16 on one node.
export HCCL_IF_IP=10.0.0.1
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 16
vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 32 # want VL111
# lint-version: 0.8.5
