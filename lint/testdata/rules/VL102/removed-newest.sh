# --swap-space was removed in 0.18 (no version stated: the newest release)
vllm serve m --swap-space 4 # want VL102
