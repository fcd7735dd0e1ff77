package resolve

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Deployment is what a spec means, resolved once. It is a plain value: copy
// it freely; WithLayout returns a new one. Spec is nil for the quick form of
// `vlaunch check` (no spec file).
type Deployment struct {
	// Spec is the source document (positions, names, runtime details).
	Spec *spec.Deployment
	// Model is the catalog entry or the parsed config.json.
	Model *catalog.Model
	// ModelSource names it as the user did: catalog id or model.config path.
	ModelSource string
	// GPU is the catalog entry or the spec's custom figures; IntraNodeKind
	// is the effective GPU-to-GPU link (the spec's intra_node.kind wins).
	GPU *catalog.GPU
	// Release is the vLLM release vlaunch resolved vllm.version to (the
	// newest it knows when the version is not given).
	Release vllm.Release
	// Version is vllm.version as written, or the assumed newest release.
	Version Setting[string]
	// VersionNotes are warnings of resolving Version to a neighbouring release.
	VersionNotes []string
	// Defaults are the release's defaults.
	Defaults vllm.Defaults
	Layout   Layout
	Network  Network
	Engine   Engine
	Workload spec.Workload
	SLO      spec.SLO
	Runtime  spec.Runtime
	// Nodes are the hosts (nil in the quick form).
	Nodes []spec.Node
	// Calibration says which efficiency constants the performance model
	// uses: a calibration file, or the global ones.
	Calibration Calibration
	// PD is the prefill/decode split of a spec with a disaggregation block
	// (nil: colocated). Layout and Engine are then the decode pool's.
	PD *Disaggregated
	// Router is the router in front of a colocated deployment's DP ranks
	// or replicas (spec.Deployment.Router; nil: none, vLLM's own DP load
	// balancer routes). A P/D deployment's is PD.Router.
	Router *Router
	// Shares, set on a pool of a P/D deployment whose nodes the other pool
	// also names, is the pool's part of each node (aligned with Nodes; an
	// entry without Shared is a node of the pool's own); nil otherwise.
	Shares []NodeShare
	// draft is vllm.speculative.draft_model's architecture as resolved
	// (Parts.Draft), kept so Parts can assemble variants of the spec.
	draft *catalog.Model
}

// Parts are the resolved parts d was assembled from: what Assemble needs
// to resolve a variant of d's spec (another layout or engine setting)
// without looking the model, GPU, release, calibration or draft up again.
func (d *Deployment) Parts() Parts {
	return Parts{Model: d.Model, GPU: d.GPU, Release: d.Release, Version: d.Version, VersionNotes: d.VersionNotes,
		Calibration: d.Calibration, Draft: d.draft}
}

// Layout is the parallel layout of the deployment: TP × PP × DP GPUs per
// replica, Replicas independent replicas.
type Layout struct {
	TP, PP, DP int
	// EP is --enable-expert-parallel; the EP group is TP × DP ranks.
	EP bool
	// Replicas independent copies of the TP × PP × DP layout run, each its
	// own `vllm serve` on its own nodes behind a load balancer, with its
	// share of the workload (0 or 1: one).
	Replicas int
	// Nodes and GPUsPerNode describe the hosts (GPUsPerNode = the largest node).
	Nodes, GPUsPerNode int
	// Auto is true while `parallelism: auto` waits for the layout search;
	// TP, PP and DP are 1 until WithLayout sets the chosen layout.
	Auto bool
}

// GPUs is the number of GPUs one replica uses (TP × PP × DP).
func (l Layout) GPUs() int { return l.TP * l.PP * l.DP }

// ReplicaCount is the number of independent replicas (at least 1).
func (l Layout) ReplicaCount() int { return max(1, l.Replicas) }

// TotalGPUs is the number of GPUs every replica together uses.
func (l Layout) TotalGPUs() int { return l.GPUs() * l.ReplicaCount() }

// EPSize is the number of ranks MoE layers are spread over: TP × DP (vLLM's
// FusedMoEParallelConfig), whether experts are split (EP) or TP-sharded.
func (l Layout) EPSize() int { return l.TP * l.DP }

// ExpertSplit is the number of ranks each routed expert's intermediate
// dimension is split over: 1 with expert parallelism (each rank holds whole
// experts), else TP × DP (vLLM's FusedMoEParallelConfig flattens TP across
// DP). catalog.Model.BlockSplitProblem takes it.
func (l Layout) ExpertSplit() int {
	if l.EP {
		return 1
	}
	return l.EPSize()
}

// BlockSplitProblem says why vLLM refuses the layout for the model's
// block-quantized weights (catalog.Model.BlockSplitProblem with this
// layout's tensor and expert splits), or "" when it accepts it. Only the
// checkpoint's own weights carry blocks: fromCheckpoint false (a converted
// copy at model.path, or online quantization of a 16-bit checkpoint) has
// none to split. validate (SPEC124), the `parallelism: auto` search and
// plan all ask it.
func (l Layout) BlockSplitProblem(m *catalog.Model, fromCheckpoint bool) string {
	if !fromCheckpoint {
		return ""
	}
	return m.BlockSplitProblem(l.TP, l.ExpertSplit())
}

// MultiNode reports whether one replica's ranks span more than one node.
func (l Layout) MultiNode() bool { return l.Nodes > 1 && l.GPUs() > l.GPUsPerNode }

// Network is the resolved interconnect.
type Network struct {
	// IntraGBytesPerS is the GPU-to-GPU link per GPU, one direction.
	IntraGBytesPerS float64
	IntraLatencyUs  float64
	// InterGbitPerSPerNIC is one NIC, one direction.
	InterGbitPerSPerNIC float64
	NICsPerNode         int
	InterLatencyUs      float64
	// InterKind is infiniband | roce | ethernet ("" on one node).
	InterKind string
	// GPUDirectRDMA says NICs support GPU-initiated RDMA (DeepEP internode).
	GPUDirectRDMA bool
	// NVLinkDomainGPUs is the multi-node NVLink domain's size in GPUs
	// (hardware.network.nvlink_domain; MNNVL); 0: NVLink ends at the node.
	NVLinkDomainGPUs int
}

// MNNVL reports a multi-node NVLink domain: several nodes of
// gpusPerNode GPUs share one NVLink fabric.
func (n Network) MNNVL(gpusPerNode int) bool { return n.NVLinkDomainGPUs > max(1, gpusPerNode) }

// NVLinkGPUs is how many GPUs reach each other over NVLink: the
// multi-node domain's, else one node's. The step model treats such a group
// as one "node" of its link model (IntraGBytesPerS inside, NICs out).
func (n Network) NVLinkGPUs(gpusPerNode int) int {
	return max(1, gpusPerNode, n.NVLinkDomainGPUs)
}

// Engine holds the effective engine settings, each with its provenance.
type Engine struct {
	// WeightsDType is how linear weights are stored: bf16 | fp16 | fp8 | int8 | mxfp4.
	WeightsDType Setting[string]
	// WeightsFromCheckpoint is true when WeightsDType is what the checkpoint
	// ships; false means an up-cast or online quantization of it.
	WeightsFromCheckpoint bool
	// KVCacheDType is bf16 | fp16 | fp8.
	KVCacheDType Setting[string]
	// KVCacheDTypeFlag is the --kv-cache-dtype the engine must be given
	// though the spec leaves it to vLLM ("" when auto is fine): an
	// architecture whose attention runs only one cache layout.
	KVCacheDTypeFlag     string
	GPUMemoryUtilization Setting[float64]
	MaxModelLen          Setting[int]
	MaxNumSeqs           Setting[int]
	MaxNumBatchedTokens  Setting[int]
	// BlockSize is the KV block size vLLM will use (MLA backends force one;
	// some architectures take their own, vllm.Release.ArchitectureBlockSize:
	// DeepSeek-V4 256, MiniMax-M3 128).
	BlockSize Setting[int]
	// BlockSizeFlag is the --block-size the engine must be given though the
	// spec leaves it to vLLM (0: vLLM's own choice runs): an architecture
	// whose attention backends take one kernel block size vLLM does not
	// pick itself, or whose pick in this release was not read
	// (vllm.Release.ArchitectureBlockSize).
	BlockSizeFlag int
	// MLABackend is the MLA attention backend assumed for an MLA model
	// (vllm.MLA* names; "" for other models).
	MLABackend string
	// UserBlock is the release's answer to the spec's block_size for an
	// MLA model when it is not simply kept (overridden, another backend,
	// or a release whose handling was not read; nil otherwise):
	// vllm.Release.MLAUserBlockSize; or an architecture's refusal in a
	// release whose kernel sizes were not read (vllm.ArchBlockSize.
	// Unverified). validate reports it.
	UserBlock *vllm.UserBlock
	// All2All is the MoE all-to-all backend that runs ("" when the kernels
	// do not run: no EP or DP = 1); From says who chose it.
	All2All Setting[string]
	// All2AllWritten is the backend the bundle selects (flag or variable, by
	// release); "" when it selects none: the kernels do not run, or the
	// user's VLLM_ALL2ALL_BACKEND decides.
	All2AllWritten string
	// All2AllAsked is vllm.all2all_backend as written ("auto" or a name),
	// kept so WithLayout can resolve it again.
	All2AllAsked string
	// CUDAGraphs says whether vLLM captures CUDA graphs.
	CUDAGraphs Setting[bool]
	// APIServers is how many API-server processes one replica's vllm serve
	// starts: what the bundle writes and the simulation's front end uses
	// (resolveAPIServers).
	APIServers Setting[int]
	// APIServersAsked is vllm.api_server_count as written (0: unset), kept
	// so WithLayout can resolve it again.
	APIServersAsked int
	// DCP is the decode context parallel size (--decode-context-parallel-size):
	// each TP group's KV cache split by token over DCP of its GPUs
	// (vllm.Release.DCP); 1 is off.
	DCP                 Setting[int]
	EnforceEager        bool
	EnableDBO           bool
	EnableEPLB          bool
	NumRedundantExperts int
	// Speculative is speculative decoding (nil: off).
	Speculative *Speculative
	// LoRA is the LoRA serving extra_args asks for (resolveLoRA).
	LoRA LoRA
	// KVCacheMemoryBytes is --kv-cache-memory-bytes in extra_args
	// (readKVCacheMemoryBytes): the KV cache each GPU reserves, in place of
	// what gpu_memory_utilization leaves; 0 when unset.
	KVCacheMemoryBytes Setting[int64]
	// Env is vllm.env as written (nil in the quick form).
	Env map[string]string
}

// All2AllExplicit reports whether the user named the backend (spec or
// VLLM_ALL2ALL_BACKEND) rather than leaving it to `auto`.
func (e Engine) All2AllExplicit() bool {
	return e.All2All.From == SourceSpec || e.All2All.From == SourceEnv
}

// NodeGPUs lists the GPUs of every node in order (the quick form: equal
// nodes of Layout.GPUsPerNode).
func (d *Deployment) NodeGPUs() []int {
	if d.Spec == nil {
		out := make([]int, max(d.Layout.Nodes, 1))
		for i := range out {
			out[i] = d.Layout.GPUsPerNode
		}
		return out
	}
	out := make([]int, len(d.Nodes))
	for i, n := range d.Nodes {
		out[i] = n.GPUs
	}
	return out
}
