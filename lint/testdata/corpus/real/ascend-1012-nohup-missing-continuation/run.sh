# Ascend toolkit environment, then a background TP8 x DP2 server.
export VLLM_USE_V1=1
export TASK_QUEUE_ENABLE=1
source /opt/ascend/toolkit/env.sh

nohup python -m vllm.entrypoints.openai.api_server
--model=/srv/weights/moe-w8a8 \
    --quantization ascend \
    --port 9100 \
    -tp=8 \
    -dp=2 \
    --max-model-len 8192 \
--additional-config
'{"torchair_graph_config":{"enabled":true}}'
\
    --gpu-memory-utilization 0.9 &> serve.log &
