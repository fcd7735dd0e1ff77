# lint-version: 0.8.5
vllm serve m --enable-dbo # want VL102
