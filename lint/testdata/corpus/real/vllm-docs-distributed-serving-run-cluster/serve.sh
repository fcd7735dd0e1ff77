# inside the head's container (docker exec -it <container_name> /bin/bash)
vllm serve /path/to/the/model/in/the/container \
    --tensor-parallel-size 8 \
    --pipeline-parallel-size 2
