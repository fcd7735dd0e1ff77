# lint-version: 0.13.0
# A removed list flag still takes its values: they are not stray arguments.
vllm serve m --cuda-graph-sizes 1 2 4 8 --port 8000 # want VL102
