# lint-version: 0.24.0
vllm serve m --compilation-config '{"cudagraph_mode":"FULL_DECODE_ONLYX"}' # want VL138
vllm serve m --port 8001 --eplb-config '{"window_sze":1000}' # want VL138
