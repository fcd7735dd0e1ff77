#!/bin/bash
export USER_VLLM_MODEL=Qwen/Qwen3-8B
export USER_VLLM_TP_SIZE=2
