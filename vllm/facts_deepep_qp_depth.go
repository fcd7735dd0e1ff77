package vllm

import (
	"fmt"
	"strconv"
	"strings"
)

// srcDeepEPQPDepth: DeepEP's low-latency kernels refuse a per-rank token
// capacity above what the NVSHMEM queue pairs hold. Read in
// deepseek-ai/DeepEP:
//
//   - commit d981409 ("Check `QP_DEPTH` for low latency kernels.", PR #430,
//     2025-09-25) adds to deep_ep/buffer.py
//     "self.nvshmem_qp_depth = int(os.environ.get('NVSHMEM_QP_DEPTH', '1024'))"
//     in Buffer.__init__ (low-latency mode) and
//     "assert self.nvshmem_qp_depth >= (num_max_dispatch_tokens_per_rank + 1) * 2"
//     at the top of low_latency_dispatch and low_latency_combine — a
//     host-side Python assert, raised before any kernel runs;
//   - 73b6ea4 (2025-10-16), the commit vLLM v0.20.0 installs
//     (tools/ep_kernels/install_python_libraries.sh line 11,
//     docker/Dockerfile line 333, kzwrime/vllm tag): deep_ep/buffer.py
//     lines 111 (the default) and 601/655 (the asserts);
//   - d4f41e4e93 (2026-05-26), the commit vLLM v0.24.0 installs (same
//     script, line 11): deep_ep/buffers/legacy.py lines 113 and 609/665;
//     unchanged at dd758ca (2026-07-14).
//
// vLLM passes num_max_dispatch_tokens_per_rank = moe.max_num_tokens
// (prepare_finalize/deepep_ll.py lines 303/319, all2all_utils.py line 177
// at v0.20.0), which is max_num_batched_tokens from v0.20.0
// (srcMoEDispatchTokens), and neither v0.20.0 nor v0.24.0 sets
// NVSHMEM_QP_DEPTH anywhere under vllm/ (git grep). With DeepEP's default
// depth 1024 the largest accepted capacity is 511 tokens; vLLM's own
// default for deepep_low_latency is 256 (BatchedDPTokens), which passes.
// FINISHED_SUM_TAG (DeepEPLLSignalTokens) is no host-side limit: no
// DeepEP commit asserts num_max_dispatch_tokens_per_rank against it.
const srcDeepEPQPDepth = "DeepEP deep_ep/buffer.py Buffer.low_latency_dispatch/low_latency_combine " +
	"\"assert self.nvshmem_qp_depth >= (num_max_dispatch_tokens_per_rank + 1) * 2\" with NVSHMEM_QP_DEPTH defaulting to 1024 " +
	"(commit d981409, PR #430; lines 111/601/655 at 73b6ea4, the DeepEP vLLM 0.20.0 installs; deep_ep/buffers/legacy.py 113/609/665 at d4f41e4e93, vLLM 0.24.0's)"

// DeepEPQPDepthEnv is the variable DeepEP reads its NVSHMEM queue-pair
// depth from (srcDeepEPQPDepth).
const DeepEPQPDepthEnv = "NVSHMEM_QP_DEPTH"

// DeepEPDefaultQPDepth is DeepEP's NVSHMEM_QP_DEPTH when the variable is
// unset (srcDeepEPQPDepth).
const DeepEPDefaultQPDepth = 1024

// DeepEPLLTokenLimit is the largest num_max_dispatch_tokens_per_rank
// DeepEP's low-latency dispatch accepts with queue-pair depth qpDepth, the
// NVSHMEM_QP_DEPTH value ("" when unset: DeepEP's 1024). ok is false when
// the value is no integer (DeepEP's int() raises then, which is not this
// rule's finding).
func DeepEPLLTokenLimit(qpDepth string) (limit, depth int, ok bool) {
	depth = DeepEPDefaultQPDepth
	if s := strings.TrimSpace(qpDepth); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, 0, false
		}
		depth = n
	}
	return depth/2 - 1, depth, true
}

// DeepEPLLTokens is the verdict on a DeepEP low-latency token capacity
// (Release.DeepEPLLTokens).
type DeepEPLLTokens struct {
	// Refused: DeepEP's assert fails at the engine's first MoE dispatch.
	Refused bool
	// Limit is the largest capacity the depth allows; NeedDepth the
	// NVSHMEM_QP_DEPTH the asked capacity needs.
	Limit, Depth, NeedDepth int
	Source                  string
}

// DeepEPLLTokens says whether backend with max_num_batched_tokens tokens
// and NVSHMEM_QP_DEPTH qpDepth ("" unset) trips DeepEP's queue-depth
// assert: only deepep_low_latency, only from the release whose MoE layers
// size the dispatch capacity by max_num_batched_tokens (PR #39107). tokens
// ≤ 0 (unknown) and an unparsable depth are never refused.
func (r Release) DeepEPLLTokens(backend string, tokens int, qpDepth string) DeepEPLLTokens {
	v := DeepEPLLTokens{Source: srcDeepEPQPDepth}
	if backend != BackendDeepEPLowLatency || tokens <= 0 || !r.MoEDispatchTokens().ByBatchedTokens {
		return v
	}
	limit, depth, ok := DeepEPLLTokenLimit(qpDepth)
	if !ok {
		return v
	}
	v.Limit, v.Depth, v.NeedDepth = limit, depth, 2*(tokens+1)
	v.Refused = tokens > limit
	return v
}

// Why is the refusal's explanation for release r and tokens tokens.
func (v DeepEPLLTokens) Why(r Release, tokens int) string {
	return fmt.Sprintf("vLLM %s sizes DeepEP low-latency's num_max_dispatch_tokens_per_rank by max_num_batched_tokens (PR #39107), "+
		"and DeepEP asserts NVSHMEM_QP_DEPTH ≥ 2·(tokens per rank + 1) before every low-latency dispatch and combine "+
		"(deep_ep/buffer.py, DeepEP commit d981409, PR #430): %d tokens need a depth of %d, the depth is %d, "+
		"so the engine fails at its first MoE forward pass (at most %d tokens fit)", r, tokens, v.NeedDepth, v.Depth, v.Limit)
}

// Hint says how to fit DeepEP's assert.
func (v DeepEPLLTokens) Hint(tokensKey, envWhere string) string {
	return fmt.Sprintf("set %s to at most %d (unset, vLLM defaults it to %d with %s), "+
		"set %s=%d or more %s, or use %s", tokensKey, v.Limit, BatchedDPTokens, BackendDeepEPLowLatency, DeepEPQPDepthEnv, v.NeedDepth, envWhere, BackendDeepEPHighThroughput)
}

// MoEDispatchBatchedSince is the first release whose MoE layers size the
// per-rank dispatch capacity by max_num_batched_tokens (PR #39107), the
// first that DeepEPLLTokens can refuse.
func MoEDispatchBatchedSince() Version { return moeDispatchBatchedSince }
