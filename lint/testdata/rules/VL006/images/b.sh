# An image older than the table is linted as its oldest release, with a note
# where the image is used (it used to pass silently as 0.5.3, or, before
# 0.5, as the other file's release).
docker run --gpus all --ipc host -p 8000:8000 vllm/vllm-openai:v0.5.0 meta-llama/Llama-3.1-8B-Instruct # want VL006
