# lint-version: 0.18.0
# From 0.18.0 both --dcp-comm-backend and --dcp-kv-cache-interleave-size
# exist (arg_utils.py at the v0.18.0 tag, L833 and L837): `--dcp` abbreviates
# both and argparse exits "ambiguous option"; `-dcp` (one dash) was meant.
vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 4 --dcp 4 # want VL101
# --dcp-c still abbreviates one flag: read as --dcp-comm-backend (a warning).
vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 4 -dcp 4 --dcp-c a2a # want VL101
