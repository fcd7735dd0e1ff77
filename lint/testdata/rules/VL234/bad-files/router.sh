#!/usr/bin/env bash
# vlaunch:host=node0
set -euo pipefail
exec vllm-router --worker-urls http://10.0.0.1:8000 http://10.0.0.2:8001 --host 0.0.0.0 --port 30000 # want VL234
