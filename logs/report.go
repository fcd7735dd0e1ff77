package logs

import "github.com/vlaunch/vlaunch/diag"

// Report is what `vlaunch logs` found in a set of log files.
type Report struct {
	Files   []File   `json:"files"`
	Engines []Engine `json:"engines"`
	// Failures are the recognised problems, errors before warnings, then in
	// the order they were logged.
	Failures []Failure `json:"failures"`
	// Comparison is filled by Compare (logged vs predicted, --spec).
	Comparison []Comparison `json:"comparison"`
	// Serving is true when an API server (or every engine of a headless
	// node) finished starting.
	Serving bool     `json:"serving"`
	Notes   []string `json:"notes,omitempty"`
	// Warnings are problems with the input itself (a file given twice).
	Warnings []string `json:"warnings,omitempty"`
	// notVLLM are the files with no vLLM log line (Unrecognised).
	notVLLM []string
}

// Unrecognised names the input files in which no line has vLLM's log
// header or a message vlaunch recognises: not vLLM logs. When every file
// is one, the report describes nothing and the command says so instead.
func (r *Report) Unrecognised() []string { return r.notVLLM }

// File describes one input.
type File struct {
	Name  string `json:"name"`
	Lines int    `json:"lines"`
	Gzip  bool   `json:"gzip,omitempty"`
	// Formats are the capture formats seen: ansi, timestamps, kubectl-prefix,
	// journald, compose, ray, ci, quoted, progress-bars, stern, and the paste
	// forms decoded (paste.go): markdown-escaped, html-entities, wrapped.
	Formats []string `json:"formats,omitempty"`
	// LongLines counts lines cut at MaxLineBytes; Truncated is true when
	// MaxFileBytes (MaxGzipBytes for gzip, decompressed) stopped the read.
	LongLines int  `json:"long_lines,omitempty"`
	Truncated bool `json:"truncated,omitempty"`
	Restarts  int  `json:"restarts,omitempty"`
}

// Engine is one vLLM engine (one DP rank; the only engine without DP) of
// one start-up attempt, with the figures its processes logged. A figure
// that was not logged is null.
type Engine struct {
	// ID is "dp0", "dp3"; "dp?" collects workers whose DP rank the log does
	// not say; "#2" marks a later start-up attempt in the same file.
	ID      string   `json:"id"`
	DPRank  *int     `json:"dp_rank"`
	Attempt int      `json:"attempt,omitempty"`
	Files   []string `json:"files"`
	Version string   `json:"version"`
	// VersionAfter is a release the log's own wording shows the engine is
	// newer than, when Version is unknown ("0.19.0" for 0.20+'s "CUDA
	// graph memory profiling is enabled (default since v0.21.0)" line).
	VersionAfter string `json:"version_after,omitempty"`
	// EngineGeneration is "V0" or "V1" when the engine-config line says.
	EngineGeneration string `json:"engine_generation,omitempty"`
	Model            string `json:"model"`
	MaxModelLen      *int   `json:"max_model_len"`
	TP               *int   `json:"tensor_parallel_size"`
	PP               *int   `json:"pipeline_parallel_size"`
	DP               *int   `json:"data_parallel_size"`
	// TPAtLeast and PPAtLeast are lower bounds when the log states no
	// size but its workers' prefixes name ranks: "Worker_TP7" means at
	// least 8 (the tail of a log need not show every rank). Set only when
	// TP (PP) is null.
	TPAtLeast *int `json:"tensor_parallel_size_at_least,omitempty"`
	PPAtLeast *int `json:"pipeline_parallel_size_at_least,omitempty"`
	// DPAtLeast is the lower bound the server's DP ranks show (engine
	// dp3: at least 4), when DP is null.
	DPAtLeast *int `json:"data_parallel_size_at_least,omitempty"`
	DPLocal   *int `json:"data_parallel_size_local,omitempty"`
	// DCP is the decode context parallel size (engine config or
	// arguments): with DCP > 1 vLLM logs the KV tokens of a rank times
	// DCP (vllm.DCPLogSource).
	DCP            *int  `json:"decode_context_parallel_size,omitempty"`
	ExpertParallel *bool `json:"expert_parallel"`
	// Args are the arguments the server printed ("non-default args", or
	// argparse's Namespace without its unset entries); Config the engine-config line.
	Args   map[string]string `json:"args,omitempty"`
	Config map[string]string `json:"config,omitempty"`

	// Architecture is the model class vLLM resolved ("Resolved
	// architecture: …", 0.26+); ModelRunner "V2" when a worker says it uses
	// the V2 model runner.
	Architecture string `json:"architecture,omitempty"`
	ModelRunner  string `json:"model_runner,omitempty"`

	GPUTotalGiB          *float64 `json:"gpu_total_gib"`
	GPUMemoryUtilization *float64 `json:"gpu_memory_utilization"`
	// UtilizationWithoutGraphProfiling is the utilization vLLM says the
	// requested one is equivalent to without CUDA graph memory profiling
	// (on by default from 0.20.0, though vLLM words it "default since v0.21.0": the graphs' estimate is taken out of the
	// budget before the KV cache).
	UtilizationWithoutGraphProfiling *float64 `json:"gpu_memory_utilization_without_cudagraph_profiling,omitempty"`
	// WeightsGiB is the largest of the weights the engine's ranks logged
	// (one figure per process; pipeline stages hold different layers) and
	// WeightsSeconds the load time that same rank logged, nil when it
	// logged none (a size and a time are never taken from two ranks); with
	// no size logged, the slowest rank's load time.
	WeightsGiB     *float64 `json:"weights_gib"`
	WeightsSeconds *float64 `json:"weights_seconds"`
	// WeightsByRank lists each rank's weights when the ranks logged
	// different ones (WeightsGiB is then the largest).
	WeightsByRank []RankGiB `json:"weights_by_rank,omitempty"`
	// SlowestWeightsSeconds is the longest weight-loading time any rank
	// logged, set when the rank WeightsGiB comes from logged no time of
	// its own (or no rank logged a size): the engine goes on only once
	// every rank has loaded.
	SlowestWeightsSeconds *float64 `json:"slowest_weights_seconds,omitempty"`
	ActivationPeakGiB     *float64 `json:"activation_peak_gib"`
	NonTorchGiB           *float64 `json:"non_torch_gib"`
	CUDAGraphGiB          *float64 `json:"cuda_graph_gib"`
	// CUDAGraphsOff says why the engine captures no CUDA graphs, when the
	// log says ("enforce_eager": the argument, or vLLM's "Enforce eager
	// set, disabling torch.compile and CUDAGraphs"); "" otherwise.
	CUDAGraphsOff  string   `json:"cuda_graphs_off,omitempty"`
	AvailableKVGiB *float64 `json:"available_kv_gib"`
	// AvailableKVByRank is each rank's logged KV budget when the engine's
	// ranks logged different ones; AvailableKVGiB is then their minimum, the
	// binding one (vLLM gives every rank the smallest rank's block count),
	// unless the ranks are pipeline stages (AvailableKVPerRankOnly).
	AvailableKVByRank []RankGiB `json:"available_kv_by_rank,omitempty"`
	// AvailableKVPerRankOnly: the ranks are pipeline stages, whose blocks
	// cost different bytes, so no GiB figure binds; AvailableKVGiB is the
	// first logged and AvailableKVByRank lists each.
	AvailableKVPerRankOnly bool `json:"available_kv_per_rank_only,omitempty"`
	// ConsumedGiB is gpu_worker.py's "Actual usage is 15.03 GiB for consumed
	// memory (weights + non-torch)" (0.26+), one figure for both terms.
	ConsumedGiB   *float64 `json:"weights_plus_non_torch_gib,omitempty"`
	KVCacheTokens *int64   `json:"kv_cache_tokens"`
	NumGPUBlocks  *int64   `json:"num_gpu_blocks,omitempty"`
	BlockSize     *int     `json:"block_size,omitempty"`
	// MambaPagePaddingPct is how much a hybrid model's mamba page was
	// padded to equal the attention page ("Padding mamba page size by
	// 20.75%"), when logged.
	MambaPagePaddingPct *float64 `json:"mamba_page_padding_pct,omitempty"`
	MaxConcurrency      *float64 `json:"max_concurrency"`
	// FlashInfer is "not installed" when a worker logged that FlashInfer is
	// not available (the profile's sampler then sorts with PyTorch); ""
	// when the log does not say.
	FlashInfer string `json:"flashinfer,omitempty"`
	// EncoderCacheBudget is the multimodal encoder cache's budget in tokens
	// and EncoderProfileItems / EncoderProfileModality what the profile ran
	// the encoder on ("1 video items of the maximum feature size"), when
	// logged.
	EncoderCacheBudget     *int64 `json:"encoder_cache_budget_tokens,omitempty"`
	EncoderProfileItems    *int   `json:"encoder_profile_items,omitempty"`
	EncoderProfileModality string `json:"encoder_profile_modality,omitempty"`
	// ConcurrencyTokens is the request length vLLM's concurrency line is for.
	ConcurrencyTokens *int `json:"max_concurrency_tokens,omitempty"`
	// Derived lists figures computed from logged ones rather than logged:
	// kv_cache_tokens (V0 blocks × block size), activation_peak_gib (V0
	// 0.6.4 peak torch memory minus weights).
	Derived []string `json:"derived,omitempty"`
	// NotMemory names the figures kept as read that are not memory facts,
	// with why (a negative CUDA graph figure: negativeGraphWhy).
	NotMemory map[string]string `json:"not_memory,omitempty"`

	AttentionBackend string            `json:"attention_backend,omitempty"`
	All2AllBackend   string            `json:"all2all_backend,omitempty"`
	KVCacheDType     string            `json:"kv_cache_dtype,omitempty"`
	Quantization     string            `json:"quantization,omitempty"`
	Addresses        map[string]string `json:"addresses,omitempty"`
	// KVTransfer is the engine's KV connector (prefill/decode
	// disaggregation, KV offload), when the log names one.
	KVTransfer *KVTransfer `json:"kv_transfer,omitempty"`
	// Pool is the pool of a P/D spec the engine was assigned to (logs
	// --spec of a disaggregated spec, AssignPools); PoolBy how it was told,
	// or why it could not be (Pool then ""). Both empty without such a spec.
	Pool   string `json:"pool,omitempty"`
	PoolBy string `json:"pool_by,omitempty"`
	// FrontEndOnly marks an engine the log shows only through its API
	// server's lines (frontEndOnlyNote): the engine core and its workers
	// logged nothing in it, so its own figures are unknown, not zero.
	FrontEndOnly bool `json:"front_end_only,omitempty"`
	// Phase is the furthest any of the engine's processes got (the API
	// server's, for a FrontEndOnly engine).
	Phase string `json:"phase"`
	Ready bool   `json:"ready"`
	Ranks []Rank `json:"ranks"`
	// Evidence says where each figure was read: "file:line".
	Evidence map[string]string `json:"evidence,omitempty"`
}

// KVTransfer is what an engine's log says about its KV connector.
type KVTransfer struct {
	// Connector is the kv_connector (NixlConnector, MultiConnector …);
	// Registered is false for a name no release's factory registers (an
	// out-of-tree class, kv_connector_module_path); NIXL marks a NIXL one.
	Connector  string `json:"connector,omitempty"`
	Registered bool   `json:"registered,omitempty"`
	NIXL       bool   `json:"nixl,omitempty"`
	// Role is kv_role as given (kv_producer, kv_consumer, kv_both); NIXL
	// ignores it (the router decides which engine prefills).
	Role     string `json:"role,omitempty"`
	EngineID string `json:"engine_id,omitempty"`
	// Backends are the NIXL backends instantiated (UCX, LIBFABRIC …).
	Backends []string `json:"backends,omitempty"`
	// KVCacheLayout is the layout NIXL set (HND, NHD).
	KVCacheLayout string `json:"kv_cache_layout,omitempty"`
	// RegisteredBlocks is the KV blocks the first worker registered with
	// NIXL (0.9–0.10 log it); UseMLA whether its layout is MLA's.
	RegisteredBlocks *int64 `json:"registered_blocks,omitempty"`
	UseMLA           *bool  `json:"use_mla,omitempty"`
	// SideChannel is the NIXL handshake listener's address, when logged.
	SideChannel string `json:"side_channel,omitempty"`
	// Metrics are NIXL's transfer figures, when the server logged them.
	Metrics *KVTransferMetrics `json:"metrics,omitempty"`
}

// KVTransferMetrics sums NIXL's periodic "KV Transfer metrics: Num
// successful transfers=…, Avg xfer time (ms)=…, …" lines (vllm#25388;
// NIXL telemetry on). Transfers adds the lines' counts up; the averages
// are the transfer-weighted mean over the lines (each line covers one
// logging interval).
type KVTransferMetrics struct {
	Lines          int     `json:"lines"`
	Transfers      int64   `json:"transfers"`
	AvgXferMs      float64 `json:"avg_xfer_ms"`
	MaxP90XferMs   float64 `json:"max_p90_xfer_ms"`
	AvgMBPerXfer   float64 `json:"avg_mb_per_transfer"`
	ThroughputMBps float64 `json:"throughput_mb_s"`
	// Evidence is the first line's file:line.
	Evidence string `json:"evidence,omitempty"`
	first    lineRef
	mbTotal  float64
	msTotal  float64
}

// Rank is one process of an engine: the engine core or one worker.
type Rank struct {
	Label string `json:"label"`
	Role  string `json:"role"`
	Host  string `json:"host,omitempty"`
	PID   int    `json:"pid,omitempty"`
	// Rank is the global rank; DP/TP/PP/EP the ranks vLLM assigned, when logged.
	Rank           *int     `json:"rank,omitempty"`
	DPRank         *int     `json:"dp_rank,omitempty"`
	TPRank         *int     `json:"tp_rank,omitempty"`
	PPRank         *int     `json:"pp_rank,omitempty"`
	EPRank         *int     `json:"ep_rank,omitempty"`
	WeightsGiB     *float64 `json:"weights_gib,omitempty"`
	AvailableKVGiB *float64 `json:"available_kv_gib,omitempty"`
	Phase          string   `json:"phase"`
	Lines          int      `json:"lines"`
	Last           LineRef  `json:"last"`
}

// LineRef is a line of an input file.
type LineRef struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Time string `json:"time,omitempty"`
	Text string `json:"text,omitempty"`
}

// Failure is one recognised problem.
type Failure struct {
	Code     diag.Code `json:"code"`
	Kind     string    `json:"kind"`
	Severity string    `json:"severity"`
	Engine   string    `json:"engine"`
	// Rank is the process the line came from, as its prefix names it.
	Rank    string `json:"rank"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
	// Text is the log line (control characters are escaped by the text printer).
	Text string `json:"text"`
	// Count is how many lines of the same process said the same.
	Count int `json:"count"`
	// Relayed are the lines another layer logged about the same failure:
	// a native library's own stderr line (unprefixed, so attributed to the
	// container's main output) next to the worker's Python exception
	// (relayedFailures).
	Relayed []Relay `json:"relayed,omitempty"`
	// FollowsFrom names the earlier failure of the same file this one is
	// a consequence of ("LOG198 at f.log:11"; followsFrom), "" when none.
	FollowsFrom string `json:"follows_from,omitempty"`
}

// Relay is one more line of a failure, written by another layer.
type Relay struct {
	Rank  string `json:"rank"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	Text  string `json:"text"`
	Count int    `json:"count"`
}

// Comparison is one term of the logged-vs-predicted table (--spec).
type Comparison struct {
	Engine string `json:"engine"`
	// Pool is the P/D pool whose prediction the engine was compared with
	// (ComparePools); "" for a colocated spec.
	Pool      string   `json:"pool,omitempty"`
	Term      string   `json:"term"`
	Unit      string   `json:"unit"`
	Logged    *float64 `json:"logged"`
	Predicted *float64 `json:"predicted"`
	// Error is (predicted − logged) / |logged|.
	Error *float64 `json:"error"`
	// Target is the calibration target for the term (docs/calibration-memory.md).
	Target *float64 `json:"target,omitempty"`
	// Within is true when |Error| ≤ Target.
	Within      *bool  `json:"within,omitempty"`
	Explanation string `json:"explanation,omitempty"`
}

// RankGiB is one rank's figure.
type RankGiB struct {
	Rank string  `json:"rank"`
	GiB  float64 `json:"gib"`
}
