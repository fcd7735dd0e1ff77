# vLLM #5867: the API server on VLLM_PORT, vLLM's internal base port.
python -u -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port $VLLM_PORT --model m # want VL212
