vllm serve moonshotai/Kimi-K2-Instruct -tp 8 --trust-remote-code
