# two templates that no file runs: each keeps its own note, though their
# commands stand at the same line and column (qa38b kzwrime)
vllm serve $MODEL_A --tensor-parallel-size $TP_A # want VL004
