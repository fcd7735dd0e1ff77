# lint-version: 0.9.2
export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7
vllm serve m --tensor-parallel-size 16 --distributed-executor-backend mp # want VL111
