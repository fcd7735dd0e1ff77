# qa/realin39 ray-head-worker-role.sh: --engine-use-ray (store_true, removed in
# 0.6.1.post1) given a value; linted for the newest release the value is still
# argparse's "unrecognized arguments: true" on every release that has the flag.
python -m vllm.entrypoints.openai.api_server --model m/x --engine-use-ray true # want VL102 VL105
