# lint-version: 0.4.0
# want-cli VL006 (the version comes from the command line: no file position)
vllm serve meta-llama/Llama-3.1-8B-Instruct
