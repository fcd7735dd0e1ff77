# vlaunch:vllm-version=0.11.0
vllm serve /srv/weights/dsv3 --port 9300 --tensor-parallel-size 4 --data-parallel-size 8 --data-parallel-size-local 2 --headless --data-parallel-start-rank 6 --data-parallel-address 198.51.100.40 --data-parallel-rpc-port 14700 --enable-expert-parallel --max-model-len 4096 --trust-remote-code --additional-config '{"torchair_graph_config":{"enabled":true}}'
