#!/usr/bin/env bash
set -euo pipefail
# Two MI355X nodes: TP4 x PP2 with decode context parallelism, vLLM's own
# multi-node launch (--nnodes/--node-rank, node 1 headless).
: "${NODE_RANK:?}" "${HEAD_ADDR:?}" "${MODEL_PATH:?}" "${SERVE_PORT:?}"

capture_sizes="${CAPTURE_SIZES:-1,2,4,8,16,32,64,96}"
compile_config=$(printf '{"mode":3,"cudagraph_mode":"FULL_AND_PIECEWISE","cudagraph_capture_sizes":[%s]}' "$capture_sizes")

export VLLM_PP_LAYER_PARTITION="${PP_SPLIT:-48,45}"
export VLLM_ROCM_USE_AITER=1 VLLM_ROCM_USE_AITER_MLA=1
export HIP_VISIBLE_DEVICES="${VISIBLE:-0,1,2,3}"

rank_addr=$(printf '%s' "${NODE_ADDRS:-$HEAD_ADDR}" | cut -d, -f$((NODE_RANK + 1)))
export VLLM_HOST_IP="$rank_addr"
peer_addr=$(printf '%s' "${NODE_ADDRS:-$HEAD_ADDR}" | cut -d, -f$((NODE_RANK == 0 ? 2 : 1)))
fabric_if=$(PEER="$peer_addr" python3 - <<'PY'
import fcntl, os, socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect((os.environ["PEER"], 1))
src = s.getsockname()[0]
for name in os.listdir("/sys/class/net"):
    try:
        addr = socket.inet_ntoa(fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))[20:24])
    except OSError:
        continue
    if addr == src:
        print(name)
        break
else:
    raise SystemExit(f"no interface for source address {src}")
PY
)
export NCCL_SOCKET_IFNAME="$fabric_if" GLOO_SOCKET_IFNAME="$fabric_if"

dist=(--nnodes 2 --node-rank "$NODE_RANK" --master-addr "$HEAD_ADDR" --master-port 29500)
[[ "$NODE_RANK" == 1 ]] && dist+=(--headless)

vllm serve "$MODEL_PATH" --served-model-name kimi-k3 \
    --host 0.0.0.0 --port "$SERVE_PORT" --trust-remote-code \
    --tensor-parallel-size "${TP:-4}" --pipeline-parallel-size 2 \
    --decode-context-parallel-size "${DCP:-4}" --dcp-comm-backend a2a "${dist[@]}" \
    --gpu-memory-utilization 0.90 --max-num-seqs 64 --max-model-len 262144 \
    --kv-cache-dtype fp8 --enable-prefix-caching \
    --compilation-config "$compile_config" --async-scheduling \
    --tool-call-parser kimi_k3 --reasoning-parser kimi_k3 --enable-auto-tool-choice \
    > "/tmp/serve_rank${NODE_RANK}.log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
wait "$server_pid"
