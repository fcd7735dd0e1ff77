#!/bin/bash
# usage: start.sh head PORT | start.sh worker ADDRESS
ROLE=$1
ARG=$2
NODES_WANTED=${NODES_WANTED:-2}

serve() {
    vllm serve ${WEIGHTS:-/srv/weights/dense-70b-fp8} \
        --port 9800 \
        --distributed-executor-backend ray \
        --tensor-parallel-size ${TP:-2} \
        --pipeline-parallel-size ${PP:-1} \
        --max-model-len ${CTX:-8192} \
        --disable-log-requests \
        --enable-prefix-caching
}

wait_for_nodes() {
    until [ "$(ray status 2>/dev/null | grep -c node_)" -ge "$1" ]; do
        sleep 5
    done
}

head() {
    ray start --head --port="$1"
    wait_for_nodes "$NODES_WANTED"
    serve
}

worker() {
    ray start --block --address="$1"
}

if [[ "$ROLE" == "head" ]]; then
    head "$ARG"
else
    worker "$ARG"
fi
