# lint-version: 0.19.1
# choices45: the v0.19.1 tag was read: it has no VLLM_SSM_CONV_STATE_LAYOUT and no DS-layout assertion, so the
# former "not known" warning is gone; NIXL moves no GDN state before 0.22.0 (an error) remains.
vllm serve Qwen/Qwen3-Next-80B-A3B-Instruct --tensor-parallel-size 4 --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' # want VL233
