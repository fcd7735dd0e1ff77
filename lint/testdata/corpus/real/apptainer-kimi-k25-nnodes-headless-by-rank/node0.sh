bash vllmA-Kimi.sh 10.1.0.10 0
