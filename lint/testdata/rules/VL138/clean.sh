# lint-version: 0.24.0
vllm serve m --compilation-config '{"pass_config":{"eliminate_noops":true,"fuse_allreduce_rms":true},"cudagraph_mode":"full_and_piecewise"}' &
vllm serve m --port 8001 -O3 --eplb-config '{"window_size":1000,"communicator":"x"}' &
