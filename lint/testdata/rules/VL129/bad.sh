# lint-version: 0.8.5
export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEF # want VL129
export MY_DB_PASSWORD=hunter2 # want VL129
# The key is reported where it is written, not where it is used.
KEY=sk-123 # want VL129
vllm serve deepseek-ai/DeepSeek-V3 --api-key "$KEY"
