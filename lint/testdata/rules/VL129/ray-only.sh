# lint-version: 0.11.0
# A line that only starts Ray still leaks the token written into it; the
# Ray workers carry it to every engine process.
export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEF # want VL129
ray start --head --port 6379 --node-ip-address 10.0.0.1
