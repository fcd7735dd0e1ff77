# want:1 VL008
# An image from the caller whose arguments are another server's flags
# (SGLang's) is not read as a vLLM launch.
docker run --gpus all "$IMAGE" --model-path Qwen/Qwen3-8B --tp 2 --mem-fraction-static 0.8
