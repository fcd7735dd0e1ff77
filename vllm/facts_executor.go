package vllm

// srcExecutor: how ParallelConfig picks the executor when
// --distributed-executor-backend is unset.
const srcExecutor = srcDist05 + " (\"Multiprocessing will be used by default when not running in a Ray placement group and if there are sufficient GPUs available on the same node ..., otherwise Ray will be used\"); " +
	"stored vllm/config/parallel.py (several versions): on CUDA, TP x PP above the node's GPUs raises \"World size (X) is larger than the number of available GPUs (Y) in this node. If this is intentional and you are using: - ray, set '--distributed-executor-backend ray'. - multiprocessing, set '--nnodes' appropriately.\"; " +
	"PR #29173 (2025-11-21, right after 0.11.1) adds --distributed-executor-backend ray to the multi-node docs; first release of the error 0.11.1 per issue #12 (unverified)"

// ExecutorTooSmallMessage starts the error newer releases raise when one
// engine's TP x PP does not fit on the node and neither Ray nor --nnodes
// was chosen.
const ExecutorTooSmallMessage = "World size (X) is larger than the number of available GPUs (Y) in this node."

// executorErrorSince is the first release that refuses instead of falling
// back to Ray (issue #12; PR #29173's timing agrees; not read at the tag).
var executorErrorSince = v0111

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
