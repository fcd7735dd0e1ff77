# lint-version: 0.12.0
# vLLM #33910 / PR #36875: the api_server module ignores --headless, so the
# --nnodes follower starts a full engine and fails.
python3 -m vllm.entrypoints.openai.api_server --model m --distributed-executor-backend mp --pipeline-parallel-size 2 --nnodes 2 --node-rank 1 --master-addr 10.0.0.1 --headless # want VL112
