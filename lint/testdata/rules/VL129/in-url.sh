# lint-version: 0.11.0
# Credentials inside longer words (qa38: a generated bundle from specs that
# held them): a token as a URL's password, AWS keys in an s3:// URL, a
# registry token in an image reference. Each is reported once, where it is
# written.
vllm serve "https://me:hf_abcdefghijklmnopqrstuvwxyzABCDEFGH@huggingface.co/openai/gpt-oss-120b" --port 8000 # want VL129
MODEL_URL="s3://AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY@bucket/gpt-oss" # want VL129
docker run --gpus all --ipc=host "user:ghp_abcdefghijklmnopqrstuvwxyz0123456789@registry.example.com/vllm:v0.11.0" --model "$MODEL_URL" # want VL129
