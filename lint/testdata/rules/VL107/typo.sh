export GLOO_SOCKET_IFNAM=eth0 # want VL107
vllm serve meta-llama/Llama-3.1-8B-Instruct
