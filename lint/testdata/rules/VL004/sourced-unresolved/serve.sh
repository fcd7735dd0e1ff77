#!/bin/bash
# the directory is computed at run time: the path does not resolve and the
# variables stay unknown (kzwrime's "$SCRIPT_DIR/env.sh")
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source ./common.sh
load_env_file "$SCRIPT_DIR/env.sh"
vllm serve ${USER_VLLM_MODEL} -tp=${USER_VLLM_TP_SIZE} # want VL004
