# lint-version: 0.10.2
# 0.10.2's release notes list DCP (#23734) but no source reads that
# release's own flags: the flag is an info (VL102), never an error. Where
# the flag exists, 3 still does not divide 8.
vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --decode-context-parallel-size 3 # want VL102 VL134
