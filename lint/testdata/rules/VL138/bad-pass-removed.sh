# lint-version: 0.13.0
# PassConfig's enable_fusion/enable_attn_fusion/enable_noop are deprecated in
# 0.12.0 and gone from 0.13.0, whose PassConfig is ConfigDict(extra="forbid")
# (vllm/config/compilation.py:99-100 at the v0.13.0 tag): vllm serve exits.
# The form of vLLM's DeepSeek-V3 wide-EP benchmark script (qa44a F3).
vllm serve m --compilation_config '{"pass_config":{"enable_noop":true},"cudagraph_mode":"FULL_DECODE_ONLY"}' # want VL138
