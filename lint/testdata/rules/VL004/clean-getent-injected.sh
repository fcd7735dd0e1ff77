# An LWS worker resolving the leader's name to its IP (vlaunch's own
# bundles): the address depends only on LWS_LEADER_ADDRESS, which the
# platform injects, so it is no value the user left out (QA #37).
leader_ip=""
for _ in $(seq 1 120); do
  out=$(getent ahostsv4 "$LWS_LEADER_ADDRESS" || true)
  leader_ip=${out%% *}
  if [ -n "$leader_ip" ]; then break; fi
  sleep 5
done
vllm serve m --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address "$leader_ip" --data-parallel-start-rank 8 --headless --port 8123
