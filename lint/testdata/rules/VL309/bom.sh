#!/bin/bash
vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 1 # want-1 VL309
