vllm serve moonshotai/Kimi-K2-Instruct -tp 8 # want VL115
# lint-version: 0.8.5
