#!/bin/bash
# Overall script to run all required vllm scripts in order on spark2
# Usage: bash run_vllm_spark2.sh
set -e  # Exit on error
# Step 1: HuggingFace login
sh ./vllm_00_hf_login.sh
# Step 2: Set environment variables
. ./vllm_01_env_spark2.sh
# Step 3: Launch Ray cluster (worker node)
bash ./vllm_02_rayspark2.sh
