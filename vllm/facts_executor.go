package vllm

// srcExecutor: how ParallelConfig picks the executor when
// --distributed-executor-backend is unset.
const srcExecutor = srcDist05 + " (\"Multiprocessing will be used by default when not running in a Ray placement group and if there are sufficient GPUs available on the same node ..., otherwise Ray will be used\"); " +
	"stored vllm/config/parallel.py (several versions): on CUDA, TP x PP above the node's GPUs raises \"World size (X) is larger than the number of available GPUs (Y) in this node. If this is intentional and you are using: - ray, set '--distributed-executor-backend ray'. - multiprocessing, set '--nnodes' appropriately.\"; " +
	"PR #29173 (2025-11-21, right after 0.11.1) adds --distributed-executor-backend ray to the multi-node docs; read at the tags (vllm/config/parallel.py): " +
	"v0.11.0 falls back to Ray when world size > the node's GPUs (l.457-464); v0.11.1 and v0.12.0 take mp when --nnodes > 1 and otherwise raise " +
	"\"Tensor parallel size (X) cannot be larger than the number of available GPUs (Y).\" (v0.11.1 l.560-569); from v0.13.0 the \"World size ... in this node\" wording"

// ExecutorTooSmallMessage starts the error releases from 0.13.0 raise when
// one engine's TP x PP does not fit on the node and neither Ray nor
// --nnodes was chosen (vllm/config/parallel.py at v0.13.0, v0.16.0,
// v0.24.0).
const ExecutorTooSmallMessage = "World size (X) is larger than the number of available GPUs (Y) in this node."

// ExecutorTooSmallMessage0111 is the same refusal's wording at 0.11.1 and
// 0.12.x (vllm/config/parallel.py at v0.11.1, v0.11.2, v0.12.0).
const ExecutorTooSmallMessage0111 = "Tensor parallel size (X) cannot be larger than the number of available GPUs (Y)."

// executorErrorSince is the first release that refuses instead of falling
// back to Ray (read at the v0.11.0 and v0.11.1 tags, srcExecutor).
var executorErrorSince = v0111

// executorWorldWording is the first release with ExecutorTooSmallMessage's
// wording.
var executorWorldWording = v0130

// ExecutorTooSmall is the refusal's wording in this release ("" where the
// release falls back to Ray instead).
func (r Release) ExecutorTooSmall() string {
	switch {
	case r.Version.Less(executorErrorSince):
		return ""
	case r.Version.Less(executorWorldWording):
		return ExecutorTooSmallMessage0111
	default:
		return ExecutorTooSmallMessage
	}
}

// ExecutorRule is how a release picks the executor for one engine's TP x PP
// workers when --distributed-executor-backend is not given.
type ExecutorRule struct {
	// CUDAFallsBackToRay: an engine larger than the node's GPUs silently
	// uses Ray on CUDA (a running Ray cluster is then required). From 0.11.1
	// it is ExecutorTooSmallMessage instead: pass
	// --distributed-executor-backend ray, or --nnodes/--node-rank.
	CUDAFallsBackToRay bool
	// OtherPlatformsFallBack is false: the fallback branch tests for CUDA,
	// so ROCm and others keep mp and fail on the missing GPUs.
	OtherPlatformsFallBack bool
	// RayWhenInPlacementGroup: inside a Ray placement group (or an
	// initialised Ray with one) the executor is Ray in every release.
	RayWhenInPlacementGroup bool
	// NNodes is whether --nnodes (mp across nodes) exists.
	NNodes   Presence
	Verified bool
	Source   string
}

// ExecutorRule returns the release's executor selection.
func (r Release) ExecutorRule() ExecutorRule {
	e := ExecutorRule{CUDAFallsBackToRay: r.Version.Less(executorErrorSince), RayWhenInPlacementGroup: true, Source: srcExecutor}
	if f, ok := KnownFlagEver("nnodes"); ok {
		e.NNodes = f.In(r.Version)
	}
	return e
}
