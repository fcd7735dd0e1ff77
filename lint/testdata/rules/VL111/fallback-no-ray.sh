# lint-version: 0.8.5
# Falls back to Ray, but no Ray cluster is started in the files: a note.
vllm serve m --tensor-parallel-size 16 # want VL111
