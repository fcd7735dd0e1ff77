ray start --address=10.99.48.128:6379
