# lint-version: 0.19.0
# DCPCommBackend = Literal["ag_rs", "a2a"] (vllm/config/parallel.py at the
# v0.19.0 tag) becomes argparse choices: 4 is refused, written in full or
# abbreviated (an abbreviation takes its flag's choices).
vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 4 -dcp 4 --dcp-comm-backend 4 # want VL104
vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 4 -dcp 4 --dcp-comm 4 # want VL101 VL104
vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 4 -dcp 4 --dcp-comm-backend a2a
