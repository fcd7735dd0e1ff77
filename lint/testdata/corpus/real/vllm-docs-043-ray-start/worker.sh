# On worker nodes
ray start --address=<ray-head-address>
