# getent of a name the caller passes is unresolved as that name; a trimmed
# command substitution is named by the substitution, not the variable.
out=$(getent ahostsv4 "$1")
ip=${out%% *}
vllm serve m --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address "$ip" --data-parallel-start-rank 8 --headless --port 8123 # want VL004
