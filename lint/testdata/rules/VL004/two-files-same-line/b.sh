# two templates that no file runs: each keeps its own note, though their
# commands stand at the same line and column (qa38b kzwrime)
vllm serve $MODEL_B --tensor-parallel-size $TP_B # want VL004
