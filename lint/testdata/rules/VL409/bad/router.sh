# lint-spec: ../../../specs/pd-two-nodes.yaml
# the decode engine after --prefill, and no URL of the prefill instance
vllm-router --vllm-pd-disaggregation --prefill http://192.168.2.11:8100 --decode http://192.168.2.11:8100 --host 0.0.0.0 --port 8000 # want VL409
