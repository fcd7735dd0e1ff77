# lint-version: 0.17.0
# Before 0.18.0 vLLM replaces a sparse MLA model's size rather than refuse
# it; 64 is the size it forces, so nothing is said.
vllm serve zai-org/GLM-5-FP8 -tp 8 --block-size 64
