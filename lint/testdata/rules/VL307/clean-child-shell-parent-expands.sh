# A double-quoted script: the parent expands the array before the child runs.
nodes=($(scontrol show hostnames "$SLURM_JOB_NODELIST"))
srun --nodes=2 --ntasks=2 bash -c "vllm serve m --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-address ${nodes[0]} --data-parallel-rpc-port 13345"
