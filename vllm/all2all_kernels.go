package vllm

// Traffic is how an all-to-all backend's kernels move one token's hidden
// state to the GPUs holding its experts and back: the pattern vlaunch's
// network model charges for dispatch and combine. Backends with the same
// pattern cost the same in the model.
type Traffic int

// Traffic patterns.
const (
	// TrafficNone: no all-to-all runs (DP = 1, or a dense model); MoE
	// layers reach their experts through the TP all-reduce.
	TrafficNone Traffic = iota
	// TrafficGather: every EP rank gathers every token of the group and
	// reduces the outputs back over NCCL, BF16 both ways
	// (allgather_reducescatter: one all-gather and one reduce-scatter;
	// naive: the same bytes in other collectives, Kernels.NaiveBroadcast;
	// and NaiveDispatch, what MoE layers do with DP > 1 and EP off).
	TrafficGather
	// TrafficPerNode: one RDMA copy per remote node that holds one of the
	// token's experts, forwarded over NVLink there (DeepEP's normal, or
	// high-throughput, kernels).
	TrafficPerNode
	// TrafficPerExpert: one copy per remote expert, over RDMA to other
	// nodes and NVLink inside the node (DeepEP's low-latency kernels and the
	// other point-to-point dispatchers).
	TrafficPerExpert
)

// String names the pattern after the backend that defines it, the name
// reports print for the mechanism in effect.
func (t Traffic) String() string {
	switch t {
	case TrafficGather:
		return BackendAllgatherReducescatter
	case TrafficPerNode:
		return BackendDeepEPHighThroughput
	case TrafficPerExpert:
		return BackendDeepEPLowLatency
	}
	return "none"
}

// PointToPoint reports the DeepEP-style patterns (per node or per expert):
// the ones that can dispatch FP8 activations and overlap two micro-batches
// (dual-batch overlap).
func (t Traffic) PointToPoint() bool { return t == TrafficPerNode || t == TrafficPerExpert }

// NaiveDispatch names what vLLM's MoE layers do when DP > 1 but expert
// parallelism is off, so that no all-to-all backend runs: every DP rank's
// tokens are gathered for the (TP-sharded) experts and the outputs reduced
// back, which vlaunch costs as TrafficGather (its collectives in that
// path not read).
const NaiveDispatch = "naive dispatch"

// Buffers is the communication memory a backend reserves outside PyTorch's
// allocator, which vLLM's KV budget does not see.
type Buffers int

// Buffer layouts.
const (
	// BuffersNone: nothing beyond NCCL's own buffers.
	BuffersNone Buffers = iota
	// BuffersDeepEPNormal: VLLM_DEEPEP_BUFFER_SIZE_MB of NVLink buffer, and
	// as much RDMA buffer when the EP group spans nodes.
	BuffersDeepEPNormal
	// BuffersLowLatency: DeepEP's LowLatencyLayout: 2 (double-buffered) × 2
	// (send + receive) × experts × VLLM_MOE_DP_CHUNK_SIZE tokens × one BF16
	// hidden vector plus a 16-byte header.
	BuffersLowLatency
)

// Kernels is what vlaunch's estimator needs to know about one backend's
// kernels.
type Kernels struct {
	Name    string
	Traffic Traffic
	// ChunkedDispatch: a rank receives at most VLLM_MOE_DP_CHUNK_SIZE tokens
	// from every source rank per dispatch, so the fused-MoE workspace vLLM
	// profiles is chunk × DP tokens; the other backends hand the experts the
	// all-gathered batch.
	ChunkedDispatch bool
	Buffers         Buffers
	// GraphsOffWithDP lists the releases in which vLLM runs an engine
	// without CUDA graphs when this backend is in effect and DP > 1
	// (empty: graphs stay on).
	GraphsOffWithDP []Span
	// Unreleased marks a name only vLLM's main branch accepts (vllm-facts.md
	// §2.4), in no release of the table: Release.All2AllBackends does not
	// list it, but a VLLM_ALL2ALL_BACKEND value naming it is still costed
	// by its pattern.
	Unreleased bool
	// NaiveBroadcast: dispatch is one NCCL broadcast per DP rank (each
	// rank's slice of the gathered buffer, from that rank), once for the
	// hidden states and once for the router logits, and combine one NCCL
	// all-reduce of the whole gathered buffer (DP ranks' tokens × hidden),
	// of which each rank keeps its slice: per MoE layer 2 × DP broadcasts
	// and an all-reduce, where allgather_reducescatter runs one all-gather
	// and one reduce-scatter (srcNaiveA2A).
	NaiveBroadcast bool
	Verified       bool
	Source         string
}

const (
	// srcNaiveA2A: NaiveAll2AllManager in vllm/distributed/device_communicators/
	// all2all.py — naive_multicast loops `self.dp_group.broadcast(buffer[start:end],
	// idx)` over the DP ranks; dispatch multicasts hidden_states and
	// router_logits; combine is `self.dp_group.all_reduce(hidden_states)`
	// then a slice. Read in the 0.9.0.1 source (docs.vllm.ai page) and in
	// a stored copy of the file of the same era (FlashInfer all2all import,
	// ≈0.10.x, release not named by the copy); the readthedocs build of PR
	// #22262 (Aug 2025) keeps the class's "uses all-reduce under the hood"
	// docstring. Releases 0.11.0–0.15.x (naive no longer the default) not
	// read: assumed unchanged (unverified). PR #33728 (Feb 2026) made the
	// name fall back to allgather_reducescatter.
	srcNaiveA2A = "docs.vllm.ai/en/v0.9.0.1/api/vllm/distributed/device_communicators/all2all (NaiveAll2AllManager: " +
		"naive_multicast = dp_group.broadcast per DP rank, dispatch multicasts hidden_states and router_logits, " +
		"combine = dp_group.all_reduce of the gathered buffer); same code in a stored ≈0.10.x copy; 0.11.0–0.15.x unverified"
	srcKernels = "vllm-facts.md §2.4 (backend table: kernels, intended use) and §4.4 (CUDA graphs); secondary: vLLM's kernel code not read"
	// srcMoriSplit: the MoRI kernels by name. PR #41751 (merged after
	// 2026-05-12) still chose MoRI's inter-node kernel with the variable
	// VLLM_MORI_INTERNODE_KERNEL; PR #44323 (2026-06-02, open) spells a
	// backend moriep_high_throughput; a `vllm serve --help=all` transcript
	// of an unnamed build lists mori_high_throughput and mori_low_latency
	// (InterNodeV1 / InterNodeV1LL for multi-node) without mori or
	// deepep_v2; main's parallel.py has both names. Their releases are in
	// the backend registry (srcMoriSplitRelease).
	srcMoriSplit = "vllm-facts.md §2.4 (newest main); vllm/config/parallel.py @00193b82 (main: \"MoRI EP with InterNodeV1 / InterNodeV1LL for multi-node\"); " +
		"PR #41751 (after 2026-05-12: kernel chosen by VLLM_MORI_INTERNODE_KERNEL); PR #44323 (2026-06-02, open: moriep_high_throughput); " +
		"PR #28664 (\"MoRI supports cuda graph\"); absent from " + srcDump + "; releases: see the backend registry (unverified)"
	// srcKernelsV2: deepep_v2's pattern is assumed from the name (per node,
	// like the kernels it supersedes); CUDA graphs stay on (PR #46887: the
	// disable block names deepep_high_throughput only).
	srcKernelsV2 = srcKernels + "; per-node pattern assumed from the name; graphs: " + srcDeepEPv2
)

// graphsOffDeepEPNormal: with DP > 1 vLLM turns CUDA graphs off for
// DeepEP's normal kernels in every release that has them: ≈0.10 forced
// enforce_eager ("DP with DeepEP high-throughput kernels are not CUDA Graph
// compatible"), later releases set cudagraph_mode NONE ("WideEP: Disabling
// CUDA Graphs…"). The switch between the two mechanisms is unverified; the
// outcome is the same.
var graphsOffDeepEPNormal = []Span{{}}

var kernelTable = []Kernels{
	{Name: BackendNaive, Traffic: TrafficGather, NaiveBroadcast: true, Source: srcKernels + "; " + srcNaiveA2A},
	{Name: BackendAllgatherReducescatter, Traffic: TrafficGather, Source: srcKernels},
	{Name: BackendDeepEPHighThroughput, Traffic: TrafficPerNode, ChunkedDispatch: true, Buffers: BuffersDeepEPNormal,
		GraphsOffWithDP: graphsOffDeepEPNormal, Source: srcKernels},
	{Name: BackendDeepEPLowLatency, Traffic: TrafficPerExpert, ChunkedDispatch: true, Buffers: BuffersLowLatency, Source: srcKernels},
	{Name: BackendPPLX, Traffic: TrafficPerExpert, ChunkedDispatch: true, Buffers: BuffersLowLatency, Source: srcKernels},
	{Name: "flashinfer_all2allv", Traffic: TrafficPerExpert, Source: srcKernels},
	{Name: "flashinfer_nvlink_one_sided", Traffic: TrafficPerExpert, Source: srcKernels},
	{Name: "flashinfer_nvlink_two_sided", Traffic: TrafficPerExpert, Source: srcKernels},
	{Name: "mori", Traffic: TrafficPerExpert, Source: srcKernels},
	{Name: "nixl_ep", Traffic: TrafficPerExpert, Source: srcKernels},
	{Name: "deepep_v2", Traffic: TrafficPerNode, Source: srcKernelsV2},
	{Name: "mori_high_throughput", Traffic: TrafficPerNode, Source: srcMoriSplit},
	{Name: "mori_low_latency", Traffic: TrafficPerExpert, Source: srcMoriSplit},
}

// BackendKernels looks up a backend's kernels by name, in any release.
func BackendKernels(name string) (Kernels, bool) {
	for _, k := range kernelTable {
		if k.Name == name {
			return k, true
		}
	}
	return Kernels{}, false
}

// TrafficOf is the pattern the MoE layers of an engine with DP > 1 follow
// when backend is in effect. "" means no all-to-all backend runs (expert
// parallelism off): NaiveDispatch, which gathers; so does a name vlaunch
// does not know. Callers handle DP = 1 and dense models (TrafficNone).
func TrafficOf(backend string) Traffic {
	if k, ok := BackendKernels(backend); ok {
		return k.Traffic
	}
	return TrafficGather
}

// CUDAGraphs reports whether release r captures CUDA graphs for an engine
// with dp data-parallel ranks running backend ("" when no all-to-all
// backend runs). enforce_eager turns them off whatever the backend.
func (r Release) CUDAGraphs(backend string, dp int, enforceEager bool) bool {
	if enforceEager {
		return false
	}
	k, _ := BackendKernels(backend)
	if dp <= 1 {
		return true
	}
	for _, s := range k.GraphsOffWithDP {
		if s.Contains(r.Version) {
			return false
		}
	}
	return true
}

// BackendNames lists every backend name vlaunch knows, released or not:
// the registry of releases plus the names only the kernel table has.
func BackendNames() []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, b := range backendTable {
		add(b.Name)
	}
	for _, k := range kernelTable {
		add(k.Name)
	}
	return out
}
