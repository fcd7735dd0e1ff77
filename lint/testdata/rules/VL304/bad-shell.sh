# A shell after a vllm/vllm-openai image without --entrypoint: the image's
# `vllm serve` gets "bash" as the model and the script never runs.
docker run --gpus all --ipc=host -p 8000:8000 \
  vllm/vllm-openai:v0.18.0 \
  bash -lc 'pip install -U transformers && vllm serve zai-org/GLM-4.5 --tensor-parallel-size 8' # want VL304
