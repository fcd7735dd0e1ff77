# lint-spec: ../../../specs/pd-two-nodes.yaml
# before NixlConnector (0.9.0) the pool rules say nothing
vllm-router --vllm-pd-disaggregation --prefill http://192.168.2.11:8100 --decode http://192.168.2.11:8100 --host 0.0.0.0 --port 8000
