ray start --head --port=6379 --num-gpus=8
vllm serve mistralai/Mistral-Small-3.2-24B-Instruct-2506 --tokenizer_mode mistral --config_format mistral \
  --load_format mistral --tool-call-parser mistral --enable-auto-tool-choice \
  --limit-mm-per-prompt '{"image":10}' --tensor-parallel-size 16 --max_model_len 65536 \
  --max_num_seqs 128 --distributed-executor-backend ray --enforce_eager
