vllm serve zai-org/GLM-5.1-FP8 --trust-remote-code --chat-template-content-format=string \
  --enable-expert-parallel --data-parallel-hybrid-lb --data-parallel-size 16 --data-parallel-size-local 8 \
  --tool-call-parser glm47 --enable-auto-tool-choice --reasoning-parser glm45 \
  --data-parallel-address 10.0.3.1 --data-parallel-rpc-port 13345 --port 8080
