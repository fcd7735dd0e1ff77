package vllm

// srcMoEDispatchTokens: what sizes FusedMoEConfig.max_num_tokens, the
// per-rank token capacity the all-to-all buffers and the batched experts'
// workspaces are built for. Read at the tags of the vLLM fork
// kzwrime/vllm (upstream tags v0.1.0–v0.24.0):
//
//   - v0.10.1 … v0.19.1: vllm/model_executor/layers/fused_moe/config.py
//     "max_num_tokens: int = envs.VLLM_MOE_DP_CHUNK_SIZE" (v0.19.1 line
//     1178) and layer.py "max_num_tokens=envs.VLLM_MOE_DP_CHUNK_SIZE"
//     (v0.19.1 line 481); the DP-chunking runner splits a larger batch into
//     chunks of that many tokens. all2all_utils.py passes it to DeepEP LL as
//     max_num_tokens_per_dp_rank=moe.max_num_tokens.
//   - PR #39107 ([MoE Refactor] Remove MoE DP chunking, upstream commit
//     e1e318af0, merged 2026-04-14): layer.py becomes
//     "max_num_tokens=vllm_config.scheduler_config.max_num_batched_tokens",
//     chunking_moe_runner.py and VLLM_MOE_DP_CHUNK_SIZE are deleted. The
//     commit is an ancestor of v0.20.0 and not of v0.19.1 (git merge-base
//     --is-ancestor); v0.19.1 holds 7 mentions of the variable under vllm/,
//     v0.19.2rc0 and v0.20.0 none.
//   - v0.20.0 layer.py line 503, v0.21.0 line 513, v0.24.0 line 320
//     ("max_num_tokens=max_num_batched_tokens"); v0.24.0 all2all_utils.py
//     line 184 (max_num_tokens_per_dp_rank=moe.max_num_tokens) →
//     distributed/device_communicators/all2all.py line 289
//     (get_low_latency_rdma_size_hint(num_max_dispatch_tokens_per_rank=
//     max_num_tokens_per_dp_rank, ...)). Neither file nor
//     prepare_finalize/deepep_ll.py asserts an upper bound on it at v0.24.0.
const srcMoEDispatchTokens = "vllm/model_executor/layers/fused_moe/config.py and layer.py at the v0.19.1 tag (max_num_tokens = envs.VLLM_MOE_DP_CHUNK_SIZE, layer.py:481); " +
	"PR #39107 (upstream e1e318af0, an ancestor of v0.20.0, not of v0.19.1); layer.py at v0.20.0:503, v0.21.0:513 and v0.24.0:320 " +
	"(max_num_tokens = scheduler_config.max_num_batched_tokens) → all2all_utils.py:184 → distributed/device_communicators/all2all.py:289 " +
	"(num_max_dispatch_tokens_per_rank) at v0.24.0 (kzwrime/vllm tags)"

// moeDispatchBatchedSince is the first release whose MoE layers size their
// per-rank token capacity by max_num_batched_tokens (PR #39107).
var moeDispatchBatchedSince = v0200

// MoEDispatchTokens is what sizes a release's per-rank MoE token capacity
// (FusedMoEConfig.max_num_tokens): the DeepEP low-latency / pplx buffers'
// num_max_dispatch_tokens_per_rank and the batched experts' workspaces.
type MoEDispatchTokens struct {
	// ByBatchedTokens: max_num_batched_tokens, whole (no DP chunking);
	// otherwise VLLM_MOE_DP_CHUNK_SIZE, a larger batch being processed in
	// chunks of that many tokens.
	ByBatchedTokens bool
	Source          string
}

// MoEDispatchTokens says what sizes the release's per-rank MoE token
// capacity (srcMoEDispatchTokens).
func (r Release) MoEDispatchTokens() MoEDispatchTokens {
	return MoEDispatchTokens{ByBatchedTokens: r.Version.AtLeast(moeDispatchBatchedSince), Source: srcMoEDispatchTokens}
}

// DeepEPLLSignalTokens is DeepEP's FINISHED_SUM_TAG (csrc/kernels/configs.cuh,
// 1024): the low-latency kernels add it to a per-expert counter to signal
// that a rank finished sending. SGLang's DeepEP dispatcher asserts
// num_max_dispatch_tokens_per_rank ≤ 1024 for it, but no DeepEP commit
// checks the token count against it (branch ll1024's reading of the
// finish counter: exact for any count); the limit DeepEP does enforce is
// the queue-pair depth's (DeepEPLLTokenLimit: 511 at the default depth).
// Kept for the record; no rule reads it.
const DeepEPLLSignalTokens = 1024
