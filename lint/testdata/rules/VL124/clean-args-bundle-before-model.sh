# Optional flags kept in variables named as such, expanded before the model
# (llm-d's GLM-5.2 decode: `exec vllm serve $PROFILER_ARGS $SPEC_ARGS
# $KV_CACHE_DTYPE_ARGS zai-org/GLM-5.2-FP8 ...`): the literal is the model.
SPEC_ARGS=""
KV_CACHE_DTYPE_ARGS="--kv-cache-dtype fp8"
if [ "${ENABLE_DSPARK:-0}" = "1" ] && [ "${LWS_GROUP_SIZE:-1}" -gt 1 ]; then
  SPEC_ARGS="--speculative-config {\"method\":\"dspark\",\"num_speculative_tokens\":${DSPARK_NUM_TOKENS}}"
  KV_CACHE_DTYPE_ARGS=""
fi
exec vllm serve $SPEC_ARGS $KV_CACHE_DTYPE_ARGS \
  zai-org/GLM-5.2-FP8 \
  --port 8200
