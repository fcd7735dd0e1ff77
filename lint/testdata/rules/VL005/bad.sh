vllm serve meta-llama/Llama-3.1-8B-Instruct --tokenizer-mode slow # want VL005
