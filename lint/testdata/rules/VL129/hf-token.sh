# lint-version: 0.24.0
# --hf-token given a token (qa45b F1: one of no recognisable format), apart or
# joined; bare, it uses the stored `hf auth login` token and carries none.
vllm serve openai/gpt-oss-120b --port 8000 --hf-token hf_abcdefSECRETtoken123 # want VL129
vllm serve openai/gpt-oss-120b --port 8001 --hf-token=hf_abcdefSECRETtoken123 # want VL129
vllm serve openai/gpt-oss-120b --port 8002 --hf-token --seed 1
