# Dynamo's prefill worker without --kv-transfer-config: vllm-runtime >=
# 1.0.0rc5 crash-loops with a ValueError (ai-dynamo/aiconfigurator#519), a note.
# Its decode worker starts without one and recomputes every prompt: a warning.
python3 -m dynamo.vllm --model m --is-prefill-worker & # want VL132
python3 -m dynamo.vllm --model m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' &
python3 -m dynamo.vllm --model m --disaggregation-mode decode & # want VL132
