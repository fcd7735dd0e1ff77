vllm serve meta-llama/Llama-3.1-8B-Instruct --disable-chunked-mm-input # want VL005
