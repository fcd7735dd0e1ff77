if [ "$NODE_RANK" = 0 ]; then
  ray start --head --port=6379
else
  ray start --address=10.0.0.1:6379
fi
