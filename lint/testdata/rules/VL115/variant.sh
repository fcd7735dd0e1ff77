# Sibling variants and cache paths of a catalog model are recognised.
vllm serve moonshotai/Kimi-K2-Thinking --tensor-parallel-size 8 # want VL115
vllm serve /root/.cache/huggingface/hub/models--moonshotai--Kimi-K2-Instruct-0905/snapshots/abc123 --tensor-parallel-size 8 --port 8001 # want VL115
