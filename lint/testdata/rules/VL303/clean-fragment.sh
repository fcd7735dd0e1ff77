# A documentation fragment of options to add: no command precedes them.
    --tensor-parallel-size 8 \
    --max-model-len 138000
