# lint-version: 0.11.0
# Credentials taken from the environment the script starts in are fine,
# and names that merely contain a credential word are not credentials.
export HF_TOKEN="${HF_TOKEN}"
export MAX_TOKENS_PER_STEP=8
vllm serve deepseek-ai/DeepSeek-V3 --api-key "$VLLM_API_KEY" --served-model-name my-token
# "None" says there is no token (AIConfigurator's generated run.sh).
export HF_TOKEN=${HF_TOKEN:-"None"}
vllm serve m --port 8001
