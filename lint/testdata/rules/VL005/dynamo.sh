# Dynamo's worker takes vLLM's engine arguments plus its own: its known flags
# are accepted, others are only listed as unchecked.
python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --is-prefill-worker --enforce-eager --dyn-unknown-option x # want VL005
