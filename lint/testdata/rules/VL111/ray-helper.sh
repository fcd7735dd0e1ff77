# lint-version: 0.10.1
# vLLM's multi-node-serving.sh starts a Ray head ("leader"): TP x PP may then
# span the Ray cluster, as in the LWS example of vLLM's docs.
bash /vllm-workspace/examples/online_serving/multi-node-serving.sh leader --ray_cluster_size=2
python3 -m vllm.entrypoints.openai.api_server --model m --tensor-parallel-size 8 --pipeline_parallel_size 2
