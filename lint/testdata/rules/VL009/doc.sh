# The placeholder does not swallow --headless: the node is still read as a
# headless secondary of a DP 4 deployment, and only the note is given.
# want+1 VL009
vllm serve <model-path> --headless --data-parallel-address <HEAD_NODE_IP> \
  --data-parallel-size 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 \
  [your extra args]
