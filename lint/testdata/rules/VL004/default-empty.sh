# ${X:-} reads a value the caller must give: it is unresolved, not an empty
# string (which would be an "invalid integer" start rank, VL103).
START_RANK=${START_RANK:-}
vllm serve m --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank "$START_RANK" --headless --port 8123 # want VL004
