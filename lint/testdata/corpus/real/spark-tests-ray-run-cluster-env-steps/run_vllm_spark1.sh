#!/bin/bash
# Overall script to run all required vllm scripts in order on spark1
# Usage: bash run_vllm_spark1.sh
set -e  # Exit on error
# Step 1: HuggingFace login
sh ./vllm_00_hf_login.sh
# Step 2: Set environment variables
. ./vllm_01_env_spark1.sh
# Step 3: Launch Ray cluster (head node)
bash ./vllm_02_rayspark1.sh
# Step 4: Launch server (interactive)
bash ./vllm_03_launch_server_spark1.sh
