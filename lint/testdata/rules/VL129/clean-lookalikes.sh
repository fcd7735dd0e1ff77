# lint-version: 0.11.0
# Words that share a prefix or a shape with a credential are not one:
# hf_transfer, "sk-" inside a path, an image digest, a URL with a port and
# an @ in its path, a password taken from the environment.
pip install hf_transfer
export HF_HUB_ENABLE_HF_TRANSFER=1
export HF_ENDPOINT="https://me:${HF_TOKEN}@hub.example.com:8443/mirror@main"
docker run --gpus all --ipc=host vllm/vllm-openai:v0.11.0@sha256:3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708 --model /data/sk-learn-models-for-production-2024/task-classifier --port 8000
