# The address is exported: the child shell sees it.
nodes=($(scontrol show hostnames "$SLURM_JOB_NODELIST"))
export HEAD="${nodes[0]}"
srun --nodes=2 --ntasks=2 bash -c 'vllm serve m --data-parallel-size 2 --data-parallel-size-local 1 --data-parallel-address $HEAD --data-parallel-rpc-port 13345'
