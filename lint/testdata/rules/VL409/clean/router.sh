# lint-spec: ../../../specs/pd-two-nodes.yaml
vllm-router --vllm-pd-disaggregation --prefill http://192.168.2.10:8100 --decode http://node1:8100 --host 0.0.0.0 --port 8000
