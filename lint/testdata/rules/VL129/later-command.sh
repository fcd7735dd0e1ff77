# lint-version: 0.11.0
# Exports for a command the linter does not know are still in the file.
export WANDB_API_KEY=0123456789abcdef0123456789abcdef # want VL129
TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEF python3 warm_cache.py # want VL129
python3 download.py --token hf_abcdefghijklmnopqrstuvwxyzABCDEF # want VL129
vllm serve Qwen/Qwen3-8B --port 8000
