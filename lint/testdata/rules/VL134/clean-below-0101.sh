# lint-version: 0.10.1
# The flag first shipped in 0.10.2: 0.10.1 refuses it as an unknown
# argument, which VL102 reports; VL134 holds only where the flag exists.
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --decode-context-parallel-size 3 # want VL102
