#!/bin/bash
# both the helper file and the file it loads are among the inputs: their
# variables resolve the command
source ./common.sh
load_env_file ./env.sh
vllm serve ${USER_VLLM_MODEL} -tp=${USER_VLLM_TP_SIZE}
