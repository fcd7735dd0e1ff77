# Node 0 names its own address through a variable the linter cannot
# resolve; node 1 names the literal. They may well agree: no finding.
vllm serve m --data-parallel-size 4 --data-parallel-size-local 2 \
  --data-parallel-address ${HCCL_IF_IP} --data-parallel-rpc-port 13389
