# lint-version: 0.20.0
# A flag vlaunch's table does not model, settled by the release tag's own
# parser (vllm.TagFlag): 0.20.0 registers no --not-a-real-flag (a warning:
# a platform plugin could add it); --hf-token and
# --enable-force-include-usage are real options there (arg_utils.py and
# cli_args.py at the v0.20.0 tag), so they are not listed.
vllm serve meta-llama/Llama-3.1-8B-Instruct --not-a-real-flag # want VL005
vllm serve meta-llama/Llama-3.1-8B-Instruct --port 8001 --hf-token --enable-force-include-usage
