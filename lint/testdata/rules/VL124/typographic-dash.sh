# Dashes from a web page or word processor are not "--".
vllm serve m –tensor-parallel-size 2 —port 8000 # want VL124 VL124
