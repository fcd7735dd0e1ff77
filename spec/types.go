// Package spec defines the vlaunch deployment document (apiVersion vlaunch/v1,
// kind Deployment), loads it from YAML while keeping every node's position,
// and applies the documented defaults.
package spec

import "gopkg.in/yaml.v3"

// APIVersion and Kind are the only values a deployment document may carry.
const (
	APIVersion = "vlaunch/v1"
	Kind       = "Deployment"
)

// Deployment is one deployment document: model, hardware, workload, SLO,
// parallel layout, vLLM settings and runtime.
type Deployment struct {
	APIVersion string   `yaml:"apiVersion" json:"apiVersion"`
	Kind       string   `yaml:"kind" json:"kind"`
	Metadata   Metadata `yaml:"metadata" json:"metadata"`
	Model      Model    `yaml:"model" json:"model"`
	Hardware   Hardware `yaml:"hardware" json:"hardware"`
	Workload   Workload `yaml:"workload" json:"workload"`
	SLO        SLO      `yaml:"slo" json:"slo"`
	// Parallelism is absent (zero) in a disaggregated spec.
	Parallelism Parallelism `yaml:"parallelism,omitempty" json:"parallelism"`
	VLLM        VLLM        `yaml:"vllm" json:"vllm"`
	Runtime     Runtime     `yaml:"runtime" json:"runtime"`
	// Disaggregation runs prefill and decode on separate pools (nil:
	// colocated); the top-level Parallelism is then absent.
	Disaggregation *Disaggregation `yaml:"disaggregation,omitempty" json:"disaggregation,omitempty"`
	// Router is a request router in front of a colocated deployment's DP
	// ranks or replicas (nil: none, vLLM's own DP load balancer routes):
	// the same Router type as disaggregation.router, which stays the P/D
	// deployment's (spec/router.go).
	Router *Router `yaml:"router,omitempty" json:"router,omitempty"`
	// Calibration is a calibration file written by `vlaunch calibrate`
	// (relative to the spec file): the efficiency constants fitted to
	// this cluster's benchmarks, used instead of the global ones.
	Calibration string `yaml:"calibration,omitempty" json:"calibration,omitempty"`

	// File is the path the document was read from ("" when built in code).
	File string `yaml:"-" json:"-"`
	// Pool is the P/D pool this document is a view of (RoleView sets it:
	// RolePrefill or RoleDecode; "" for a whole spec). Settings whose best
	// value depends on the pool's role (the automatic all-to-all backend)
	// read it, since the view itself no longer carries the disaggregation
	// block.
	Pool string `yaml:"-" json:"-"`
	// Root is the parsed YAML document node; Pos uses it to map field paths
	// back to line and column.
	Root *yaml.Node `yaml:"-" json:"-"`
	// routerHost is the top-level router's CPU-only node in an
	// EngineView, which leaves it out of hardware.nodes.
	routerHost *Node
}

// Metadata names the deployment; the name is used in file names and labels.
type Metadata struct {
	Name string `yaml:"name" json:"name"`
}

// Model says which model is served and from which checkpoint.
type Model struct {
	// Name is a catalog id such as "deepseek-v3"; exclusive with Config.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Config is a path to a Hugging Face config.json, relative to the spec file.
	Config string `yaml:"config,omitempty" json:"config,omitempty"`
	// Weights is auto | bf16 | fp16 | fp8 | int8; auto means what the
	// checkpoint ships; int8 only where it ships INT8 W8A8.
	Weights string `yaml:"weights,omitempty" json:"weights,omitempty" flag:"quantization,dtype"`
	// Path is where the weights live on every host (or a Hugging Face repo id).
	Path string `yaml:"path,omitempty" json:"path,omitempty"`
	// ServedName is the name the API exposes.
	ServedName string `yaml:"served_name,omitempty" json:"served_name,omitempty" flag:"served-model-name"`
	// TrustRemoteCode passes --trust-remote-code; nil means what the model needs.
	TrustRemoteCode *bool `yaml:"trust_remote_code,omitempty" json:"trust_remote_code,omitempty" flag:"trust-remote-code"`
}

// Hardware describes the GPUs, the nodes and the network between them.
type Hardware struct {
	GPU     GPURef  `yaml:"gpu" json:"gpu"`
	Nodes   []Node  `yaml:"nodes" json:"nodes"`
	Network Network `yaml:"network" json:"network"`
}

// GPURef is either a catalog id (Name) or custom figures (Custom).
type GPURef struct {
	Name   string
	Custom *GPUFigures
}

// GPUFigures are the facts the estimator needs about a GPU.
type GPUFigures struct {
	Name string `yaml:"name" json:"name"`
	// MemoryMiB is the total memory the CUDA runtime reports (what vLLM multiplies).
	MemoryMiB              float64 `yaml:"memory_mib" json:"memory_mib"`
	HBMBandwidthGBytesPerS float64 `yaml:"hbm_bandwidth_gbytes_per_s" json:"hbm_bandwidth_gbytes_per_s"`
	BF16TFLOPS             float64 `yaml:"bf16_tflops" json:"bf16_tflops"`
	FP8TFLOPS              float64 `yaml:"fp8_tflops,omitempty" json:"fp8_tflops,omitempty"`
	IntraNodeGBytesPerS    float64 `yaml:"intra_node_gbytes_per_s,omitempty" json:"intra_node_gbytes_per_s,omitempty"`
	Vendor                 string  `yaml:"vendor,omitempty" json:"vendor,omitempty"`
}

// Node is one host of the deployment.
type Node struct {
	Name    string `yaml:"name" json:"name"`
	Address string `yaml:"address" json:"address"`
	GPUs    int    `yaml:"gpus" json:"gpus"`
	// Interface carries socket traffic (GLOO/NCCL bootstrap), e.g. "eth0".
	Interface   string   `yaml:"interface,omitempty" json:"interface,omitempty"`
	RDMADevices []string `yaml:"rdma_devices,omitempty" json:"rdma_devices,omitempty"`
}

// Network describes the links inside a node and between nodes.
type Network struct {
	IntraNode IntraNode `yaml:"intra_node" json:"intra_node"`
	InterNode InterNode `yaml:"inter_node" json:"inter_node"`
	// NVLinkDomain joins nodes into multi-node NVLink domains (MNNVL: a
	// GB200/GB300 NVL72 rack's compute trays share one NVLink fabric), so
	// collectives between trays of one domain run over NVLink and only
	// traffic leaving the domain takes the inter-node NICs; nil: every
	// node is an NVLink domain of its own.
	NVLinkDomain *NVLinkDomain `yaml:"nvlink_domain,omitempty" json:"nvlink_domain,omitempty"`
}

// NVLinkDomain is a multi-node NVLink domain. Nodes fill domains in the
// order hardware.nodes lists them, each node wholly inside one.
type NVLinkDomain struct {
	// GPUs is how many GPUs share one domain (an NVL72 rack: 72); 0: the
	// GPU's own domain size (catalog.GPU.NVLinkDomainGPUs).
	GPUs int `yaml:"gpus,omitempty" json:"gpus,omitempty"`
}

// IntraNode is the GPU-to-GPU link inside one node.
type IntraNode struct {
	Kind string `yaml:"kind,omitempty" json:"kind,omitempty"` // nvlink | pcie | xgmi
	// BandwidthGBytesPerS is per GPU, one direction; 0 = the GPU catalog's figure.
	BandwidthGBytesPerS float64 `yaml:"bandwidth_gbytes_per_s,omitempty" json:"bandwidth_gbytes_per_s,omitempty"`
	LatencyUs           float64 `yaml:"latency_us,omitempty" json:"latency_us,omitempty"`
}

// InterNode is the fabric between nodes.
type InterNode struct {
	Kind string `yaml:"kind,omitempty" json:"kind,omitempty"` // infiniband | roce | ethernet
	// BandwidthGbitPerS is per NIC, one direction.
	BandwidthGbitPerS float64 `yaml:"bandwidth_gbit_per_s,omitempty" json:"bandwidth_gbit_per_s,omitempty"`
	NICsPerNode       int     `yaml:"nics_per_node,omitempty" json:"nics_per_node,omitempty"`
	LatencyUs         float64 `yaml:"latency_us,omitempty" json:"latency_us,omitempty"`
	// GIDIndex is the RoCE v2 GID index (NCCL_IB_GID_INDEX); nil = NCCL picks it.
	GIDIndex *int `yaml:"gid_index,omitempty" json:"gid_index,omitempty"`
	// GPUDirectRDMA says the NICs support GPU-initiated RDMA (mlx5 + IBGDA);
	// nil = inferred from Kind (true for infiniband and roce).
	GPUDirectRDMA *bool `yaml:"gpu_direct_rdma,omitempty" json:"gpu_direct_rdma,omitempty"`
}

// Workload is the typical request shape and the load.
type Workload struct {
	Concurrency  int `yaml:"concurrency" json:"concurrency"`
	MaxModelLen  int `yaml:"max_model_len" json:"max_model_len" flag:"max-model-len"`
	InputTokens  int `yaml:"input_tokens" json:"input_tokens"`
	OutputTokens int `yaml:"output_tokens" json:"output_tokens"`
	// ArrivalRatePerS switches the simulation to open-loop arrivals:
	// Poisson, or gamma inter-arrival gaps (ArrivalBurstiness).
	ArrivalRatePerS float64 `yaml:"arrival_rate_per_s,omitempty" json:"arrival_rate_per_s,omitempty"`
	// ArrivalBurstiness shapes the open loop's inter-arrival gaps as vLLM's
	// bench serve --burstiness B does: gamma of shape B and mean
	// 1/ArrivalRatePerS (vllm-project/vllm benchmarks/benchmark_serving.py
	// get_request at 0049e29c, vllm/benchmarks/serve.py at def9ce85:
	// np.random.gamma(shape=burstiness, scale=1/(rate × burstiness))), so
	// the gaps' squared coefficient of variation is 1/B: B = 1 Poisson
	// (the default, 0 here), below 1 burstier, above 1 smoother (B = 100:
	// gaps of 1/rate with a standard deviation of 10%: nearly a fixed
	// interval). Only with
	// ArrivalRatePerS (validate says so otherwise).
	ArrivalBurstiness float64 `yaml:"arrival_burstiness,omitempty" json:"arrival_burstiness,omitempty"`
	// ClientMaxConcurrency holds the open loop (ArrivalRatePerS) to at
	// most this many requests in flight, as vLLM's bench serve
	// --max-concurrency C with a finite --request-rate does (SGLang's
	// bench_serving and AIPerf alike): a request that arrives with C in
	// flight waits in the client's semaphore, and its TTFT and end-to-end
	// timers start when it is sent, so that wait is in no figure
	// (sim.Config.ClientCap cites the clients' source). 0: no cap. Only
	// with ArrivalRatePerS (validate says so otherwise).
	ClientMaxConcurrency int `yaml:"client_max_concurrency,omitempty" json:"client_max_concurrency,omitempty"`
	// BurstRequests makes the simulated load a finite benchmark run of this
	// many requests (a client's --num-prompts): sent at t=0 — at most
	// Concurrency in flight when Concurrency is set (--max-concurrency) —
	// or at ArrivalRatePerS when that is set. 0: the steady state. A
	// disaggregated deployment runs it through both pools (estimate/pd's
	// finite mode).
	BurstRequests int `yaml:"burst_requests,omitempty" json:"burst_requests,omitempty"`
	// PrefixCacheHitRate is the fraction of input tokens served from prefix cache.
	PrefixCacheHitRate float64 `yaml:"prefix_cache_hit_rate,omitempty" json:"prefix_cache_hit_rate,omitempty"`
	// SessionTokens is the context each session grows to and keeps in the
	// KV cache (a multi-turn chat that resends its history): capacity is
	// Concurrency sessions of this many tokens. 0: one request's input +
	// output tokens (max_model_len when the workload states no lengths);
	// max_model_len only limits one request.
	SessionTokens int `yaml:"session_tokens,omitempty" json:"session_tokens,omitempty"`
	// Lengths spreads request lengths around InputTokens and OutputTokens,
	// which stay their means; nil: every request at exactly those lengths,
	// which collapses the latency tails (TTFT p50 = p99).
	Lengths *Lengths `yaml:"lengths,omitempty" json:"lengths,omitempty"`
	// API is the OpenAI endpoint the clients call: APIChat
	// (/v1/chat/completions) or APICompletions (/v1/completions, a text
	// prompt without a chat template). Empty: chat, what most deployments
	// serve. It decides whether a request pays the release's per-request
	// chat-template work in the API server (vllm.Release.ChatTemplateParse).
	API string `yaml:"api,omitempty" json:"api,omitempty"`
}

// The endpoints workload.api names.
const (
	APIChat        = "chat"
	APICompletions = "completions"
)

// APIs are the values workload.api takes.
var APIs = []string{APIChat, APICompletions}

// Burstiness is the open loop's gamma shape as the simulator takes it
// (sim.Config.Burstiness): ArrivalBurstiness, 1 (Poisson) when not
// given, and 1 without an arrival rate, where it has no meaning.
func (w Workload) Burstiness() float64 {
	if w.ArrivalRatePerS <= 0 || w.ArrivalBurstiness <= 0 {
		return 1
	}
	return w.ArrivalBurstiness
}

// Chat reports whether the clients call the chat endpoint (the default).
func (w Workload) Chat() bool { return w.API != APICompletions }

// Lengths is a distribution of request lengths: a benchmark dataset
// vlaunch knows, or a shape with a coefficient of variation.
type Lengths struct {
	// Dataset is sharegpt: the benchmark clients' filtered ShareGPT
	// (log-normal, cut at 1,024 prompt and 2,048 total tokens).
	Dataset string `yaml:"dataset,omitempty" json:"dataset,omitempty"`
	// Distribution is lognormal or uniform, with CV its standard deviation
	// over its mean (both lengths).
	Distribution string  `yaml:"distribution,omitempty" json:"distribution,omitempty"`
	CV           float64 `yaml:"cv,omitempty" json:"cv,omitempty"`
}

// SLO is what the user needs from the deployment.
type SLO struct {
	ThroughputTokensPerS float64 `yaml:"throughput_tokens_per_s,omitempty" json:"throughput_tokens_per_s,omitempty"`
	// ThroughputCounts is output | total (input + output).
	ThroughputCounts string       `yaml:"throughput_counts,omitempty" json:"throughput_counts,omitempty"`
	TTFT             []TTFTTarget `yaml:"ttft,omitempty" json:"ttft,omitempty"`
	TPOTMs           float64      `yaml:"tpot_ms,omitempty" json:"tpot_ms,omitempty"`
}

// TTFTTarget bounds time-to-first-token percentiles for one input length.
type TTFTTarget struct {
	InputTokens int      `yaml:"input_tokens" json:"input_tokens"`
	P50S        *float64 `yaml:"p50_s,omitempty" json:"p50_s,omitempty"`
	P95S        *float64 `yaml:"p95_s,omitempty" json:"p95_s,omitempty"`
	P99S        *float64 `yaml:"p99_s,omitempty" json:"p99_s,omitempty"`
}

// Parallelism is the layout; Auto asks the layout search to choose.
type Parallelism struct {
	Auto     bool `yaml:"-" json:"auto,omitempty"`
	Tensor   int  `yaml:"tensor" json:"tensor" flag:"tensor-parallel-size"`
	Pipeline int  `yaml:"pipeline" json:"pipeline" flag:"pipeline-parallel-size"`
	Data     int  `yaml:"data" json:"data" flag:"data-parallel-size"`
	Expert   bool `yaml:"expert" json:"expert" flag:"enable-expert-parallel"`
	// Replicas is how many independent copies of the tensor × pipeline ×
	// data layout run, each its own `vllm serve` on its own nodes, behind a
	// load balancer (0 or 1: one).
	Replicas int `yaml:"replicas,omitempty" json:"replicas,omitempty"`
}

// IsZero reports a layout nobody wrote (a disaggregated spec's): YAML
// output leaves it out.
func (p Parallelism) IsZero() bool { return p == Parallelism{} }

// ReplicaCount is the number of independent replicas (at least 1).
func (p Parallelism) ReplicaCount() int { return max(1, p.Replicas) }

// MaxReplicas is the most parallelism.replicas (and a pool's instances) a
// spec may ask for: the schema's maximum (schemas' TestMaxReplicas holds
// them equal), which the layout search keeps to so that plan never offers
// a spec validate refuses.
const MaxReplicas = 10000

// VLLM holds the vLLM version and engine settings.
type VLLM struct {
	Version              string   `yaml:"version" json:"version"`
	GPUMemoryUtilization *float64 `yaml:"gpu_memory_utilization,omitempty" json:"gpu_memory_utilization,omitempty" flag:"gpu-memory-utilization"`
	KVCacheDType         string   `yaml:"kv_cache_dtype,omitempty" json:"kv_cache_dtype,omitempty" flag:"kv-cache-dtype"`
	All2AllBackend       string   `yaml:"all2all_backend,omitempty" json:"all2all_backend,omitempty" flag:"all2all-backend"`
	MaxNumSeqs           *int     `yaml:"max_num_seqs,omitempty" json:"max_num_seqs,omitempty" flag:"max-num-seqs"`
	MaxNumBatchedTokens  *int     `yaml:"max_num_batched_tokens,omitempty" json:"max_num_batched_tokens,omitempty" flag:"max-num-batched-tokens"`
	BlockSize            *int     `yaml:"block_size,omitempty" json:"block_size,omitempty" flag:"block-size"`
	// DecodeContextParallelSize is --decode-context-parallel-size (nil:
	// vLLM's default, 1): the TP group's KV cache split by token.
	DecodeContextParallelSize *int     `yaml:"decode_context_parallel_size,omitempty" json:"decode_context_parallel_size,omitempty" flag:"decode-context-parallel-size"`
	Port                      int      `yaml:"port,omitempty" json:"port,omitempty" flag:"port"`
	RPCPort                   int      `yaml:"rpc_port,omitempty" json:"rpc_port,omitempty" flag:"data-parallel-rpc-port"`
	APIServerCount            *int     `yaml:"api_server_count,omitempty" json:"api_server_count,omitempty" flag:"api-server-count"`
	EnforceEager              bool     `yaml:"enforce_eager,omitempty" json:"enforce_eager,omitempty" flag:"enforce-eager"`
	EnableDBO                 bool     `yaml:"enable_dbo,omitempty" json:"enable_dbo,omitempty" flag:"enable-dbo"`
	EnableEPLB                bool     `yaml:"enable_eplb,omitempty" json:"enable_eplb,omitempty" flag:"enable-eplb"`
	NumRedundantExperts       int      `yaml:"num_redundant_experts,omitempty" json:"num_redundant_experts,omitempty" flag:"eplb-config,num-redundant-experts"`
	ExtraArgs                 []string `yaml:"extra_args,omitempty" json:"extra_args,omitempty"`
	// Env is applied last, after everything vlaunch sets; never put secrets here.
	Env map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
	// Speculative turns on speculative decoding (nil: off).
	Speculative *Speculative `yaml:"speculative,omitempty" json:"speculative,omitempty" flag:"speculative-config,speculative-model,num-speculative-tokens"`
}

// Speculative is vllm.speculative: a proposer drafts NumSpeculativeTokens
// tokens per sequence and step, the target verifies them (and one more
// position) in its forward pass.
type Speculative struct {
	// Method is mtp | eagle | eagle3 | ngram | draft_model.
	Method string `yaml:"method" json:"method"`
	// NumSpeculativeTokens is vLLM's num_speculative_tokens: drafts per
	// sequence per step.
	NumSpeculativeTokens int `yaml:"num_speculative_tokens,omitempty" json:"num_speculative_tokens,omitempty"`
	// MeanAcceptanceLength is the tokens emitted per verify step, the bonus
	// token included, as vLLM's and SGLang's metrics report it (nil: the
	// method's published default).
	MeanAcceptanceLength *float64 `yaml:"mean_acceptance_length,omitempty" json:"mean_acceptance_length,omitempty"`
	// DraftModel is the proposer's checkpoint (eagle, eagle3, draft_model).
	DraftModel *DraftModel `yaml:"draft_model,omitempty" json:"draft_model,omitempty"`
}

// DraftModel names a proposer checkpoint: Path is what vLLM loads (a hub
// id or a path on the hosts); Name (a catalog id) or Config (a config.json,
// relative to the spec) describes its architecture for the estimate.
type DraftModel struct {
	Path   string `yaml:"path,omitempty" json:"path,omitempty"`
	Name   string `yaml:"name,omitempty" json:"name,omitempty"`
	Config string `yaml:"config,omitempty" json:"config,omitempty"`
}

// Runtime says how the nodes run vLLM.
type Runtime struct {
	Kind       string     `yaml:"kind,omitempty" json:"kind,omitempty"` // bare | docker | kubernetes
	Image      string     `yaml:"image,omitempty" json:"image,omitempty"`
	VLLMBinary string     `yaml:"vllm_binary,omitempty" json:"vllm_binary,omitempty"`
	Docker     Docker     `yaml:"docker,omitempty" json:"docker,omitempty"`
	Kubernetes Kubernetes `yaml:"kubernetes,omitempty" json:"kubernetes,omitempty"`
}

// Docker settings for runtime kind docker.
type Docker struct {
	ShmSize    string `yaml:"shm_size,omitempty" json:"shm_size,omitempty"`
	ModelMount string `yaml:"model_mount,omitempty" json:"model_mount,omitempty"`
	CacheDir   string `yaml:"cache_dir,omitempty" json:"cache_dir,omitempty"`
}

// Kubernetes settings for runtime kind kubernetes (LeaderWorkerSet).
type Kubernetes struct {
	Namespace      string `yaml:"namespace,omitempty" json:"namespace,omitempty"`
	ShmSize        string `yaml:"shm_size,omitempty" json:"shm_size,omitempty"`
	ModelPVC       string `yaml:"model_pvc,omitempty" json:"model_pvc,omitempty"`
	RDMAResource   string `yaml:"rdma_resource,omitempty" json:"rdma_resource,omitempty"`
	ServiceAccount string `yaml:"service_account,omitempty" json:"service_account,omitempty"`
	// ModelHostPath is a directory on every node holding the model (or,
	// for a hub id, the Hugging Face cache), mounted read-only as a hostPath.
	ModelHostPath string `yaml:"model_host_path,omitempty" json:"model_host_path,omitempty"`
}

// TotalGPUs is the number of GPUs over all nodes.
func (d *Deployment) TotalGPUs() int {
	n := 0
	for _, node := range d.Hardware.Nodes {
		n += node.GPUs
	}
	return n
}
