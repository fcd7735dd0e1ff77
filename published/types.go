package published

// Set is the parsed throughput data file.
type Set struct {
	Schema  string   `yaml:"schema"`
	Sources []Source `yaml:"sources"`
	Rows    []Row    `yaml:"rows"`
}

// Source is one publication (blog post, issue, document, data file); the
// split is chosen per source so that whole sources are held out.
type Source struct {
	ID        string `yaml:"id"`
	Split     string `yaml:"split"`
	Publisher string `yaml:"publisher"`
	Title     string `yaml:"title"`
	URL       string `yaml:"url"`
	Date      string `yaml:"date"`
	// Access says how the text was read (repository file at a commit,
	// issue text, or the team's earlier notes).
	Access string `yaml:"access"`
	Notes  string `yaml:"notes"`
}

// Row is one benchmark run of one deployment, with the figures the source
// published for it. Units are in the field names.
type Row struct {
	ID     string `yaml:"id"`
	Source string `yaml:"source"`
	Split  string `yaml:"split"`
	// SourceDate is the date of the row's source (YYYY-MM-DD or
	// "unknown"), copied from the source by Parse: a run cannot be newer
	// than the publication that reports it, so the date bounds an unstated
	// engine version (estimate/replay's class).
	SourceDate string `yaml:"-"`
	// Where locates the figures in the source (table, row, line).
	Where string `yaml:"where"`
	// LegacyIDs are the ids the row had in docs/calibration-throughput.md.
	LegacyIDs   []string     `yaml:"legacy_ids"`
	Engine      Engine       `yaml:"engine"`
	Model       Model        `yaml:"model"`
	Hardware    Hardware     `yaml:"hardware"`
	Layout      Layout       `yaml:"layout"`
	Features    Features     `yaml:"features"`
	Speculative *Speculative `yaml:"speculative"`
	Workload    Workload     `yaml:"workload"`
	Load        Load         `yaml:"load"`
	Figures     Figures      `yaml:"figures"`
	// Inferred lists fields (dotted paths) derived rather than read.
	Inferred []string `yaml:"inferred"`
	// Incomplete says what a reproduction would need that the source does
	// not give; such rows are kept for reference and never targeted.
	Incomplete string `yaml:"incomplete"`
	Confidence string `yaml:"confidence"`
	Notes      string `yaml:"notes"`
}

// Engine is the serving engine as the source ran it.
type Engine struct {
	Name    string `yaml:"name"`
	Version string `yaml:"version"`
	Image   string `yaml:"image"`
	// Flags quotes the launch command or its relevant flags.
	Flags string `yaml:"flags"`
}

// Model is the checkpoint served.
type Model struct {
	ID string `yaml:"id"`
	// Catalog is the vlaunch catalog id whose config stands in for it.
	Catalog      string `yaml:"catalog"`
	Weights      string `yaml:"weights"`
	KVCacheDType string `yaml:"kv_cache_dtype"`
}

// Hardware is the GPUs of the measured deployment (or of the measured
// role, for prefill/decode disaggregation).
type Hardware struct {
	// GPU is a vlaunch catalog GPU id.
	GPU         string `yaml:"gpu"`
	GPUName     string `yaml:"gpu_name"`
	GPUs        Num    `yaml:"gpus"`
	Nodes       Num    `yaml:"nodes"`
	GPUsPerNode Num    `yaml:"gpus_per_node"`
	IntraNode   string `yaml:"intra_node"`
	InterNode   string `yaml:"inter_node"`
}

// Layout is the parallel layout in vLLM's terms: GPUs = TP x PP x DP, with
// TP the attention tensor-parallel size of a rank and DP the number of
// attention data-parallel ranks (SGLang's DP attention included); EP is the
// expert-parallel size (1: experts tensor-sharded).
type Layout struct {
	TP          Num  `yaml:"tp"`
	PP          Num  `yaml:"pp"`
	DP          Num  `yaml:"dp"`
	EP          Num  `yaml:"ep"`
	DPAttention Flag `yaml:"dp_attention"`
	// Role is colocated, prefill or decode (disaggregated serving).
	Role string `yaml:"role"`
}

// Features are engine settings that change step time.
type Features struct {
	All2All              string `yaml:"all2all"`
	MoEBackend           string `yaml:"moe_backend"`
	AttentionBackend     string `yaml:"attention_backend"`
	CUDAGraphs           Flag   `yaml:"cuda_graphs"`
	Overlap              string `yaml:"overlap"`
	EPLBRedundantExperts Num    `yaml:"eplb_redundant_experts"`
	ChunkedPrefill       Flag   `yaml:"chunked_prefill"`
	PrefixCaching        Flag   `yaml:"prefix_caching"`
	MaxNumSeqs           Num    `yaml:"max_num_seqs"`
	MaxNumBatchedTokens  Num    `yaml:"max_num_batched_tokens"`
	// MaxCUDAGraphCaptureSize is vLLM's --max-cudagraph-capture-size (the
	// largest batch, in tokens, replayed from a captured graph).
	MaxCUDAGraphCaptureSize Num  `yaml:"max_cudagraph_capture_size"`
	MaxModelLen             Num  `yaml:"max_model_len"`
	GPUMemoryUtilization    Num  `yaml:"gpu_memory_utilization"`
	AsyncScheduling         Flag `yaml:"async_scheduling"`
	TorchCompile            Flag `yaml:"torch_compile"`
}

// Speculative is speculative decoding normalised to vLLM's terms:
// NumSpeculativeTokens draft tokens per sequence per step, VerifyPositions
// = NumSpeculativeTokens + 1 positions the target model verifies, and
// AcceptanceLength tokens emitted per verify step including the bonus token.
type Speculative struct {
	Method string `yaml:"method"`
	// SourceSetting quotes the source's own flags or wording.
	SourceSetting           string `yaml:"source_setting"`
	NumSpeculativeTokens    Num    `yaml:"num_speculative_tokens"`
	VerifyPositions         Num    `yaml:"verify_positions"`
	AcceptanceLength        Stat   `yaml:"acceptance_length"`
	AcceptanceIncludesBonus Flag   `yaml:"acceptance_includes_bonus"`
}

// Workload is the request shape. Nominal lengths are what the client asked
// for; the means are what it sent or received, where published.
type Workload struct {
	Dataset            string `yaml:"dataset"`
	InputTokens        Num    `yaml:"input_tokens"`
	OutputTokens       Num    `yaml:"output_tokens"`
	InputTokensMean    Num    `yaml:"input_tokens_mean"`
	OutputTokensMean   Num    `yaml:"output_tokens_mean"`
	RangeRatio         Num    `yaml:"range_ratio"`
	IgnoreEOS          Flag   `yaml:"ignore_eos"`
	ContextTokens      Num    `yaml:"context_tokens"`
	PrefixCacheHitRate Num    `yaml:"prefix_cache_hit_rate"`
	// Client is the benchmark tool that measured the run (one of Clients;
	// "": not recorded) and API the endpoint it called (APIChat,
	// APICompletions, APINative): together they say which streamed chunk
	// the published TTFT stops at (clients.go).
	Client string `yaml:"client"`
	API    string `yaml:"api"`
}

// Load kinds: how requests arrived.
const (
	LoadClosedLoop    = "closed-loop"    // Concurrency sessions, each sends its next request when one ends
	LoadBurst         = "burst"          // BurstRequests sent at t=0, no cap
	LoadPoisson       = "poisson"        // RequestRatePerS, NumPrompts requests
	LoadOfflineBatch  = "offline-batch"  // BurstRequests handed to the engine at once (no HTTP)
	LoadSteadyDecode  = "steady-decode"  // a sustained decode batch, measured on the engine
	LoadSteadyPrefill = "steady-prefill" // sustained prefill of InputTokens-long prompts
	LoadProduction    = "production"     // live traffic
)

// Load is the arrival pattern of the benchmark.
type Load struct {
	Kind               string `yaml:"kind"`
	Concurrency        Num    `yaml:"concurrency"`
	ConcurrencyPerRank Num    `yaml:"concurrency_per_rank"`
	BurstRequests      Num    `yaml:"burst_requests"`
	NumPrompts         Num    `yaml:"num_prompts"`
	RequestRatePerS    Num    `yaml:"request_rate_per_s"`
	BatchPerGPU        Num    `yaml:"batch_per_gpu"`
	BatchTokensPerGPU  Num    `yaml:"batch_tokens_per_gpu"`
	WarmupRequests     Num    `yaml:"warmup_requests"`
	// PromptsSeenBefore is true when the run's prompts (at least its
	// first ones) had already been sent to the same server by an earlier
	// run of the source, with the server's prefix cache on and not
	// flushed between the runs: the client regenerated one prompt
	// sequence (SGLang bench_serving's default --seed 1 draws every run's
	// random prompts from numpy's RandomState(1)), so those prompts were
	// served from cache rather than prefilled and the run's TTFT is not
	// its protocol's cold one (estimate/replay excludes it: exclude.go
	// promptsSeenBefore). Unknown (the default) and false: no such reuse
	// is known.
	PromptsSeenBefore Flag `yaml:"prompts_seen_before"`
}

// Figures are the published results. Throughput without a suffix is for the
// whole deployment of the row; _per_gpu, _per_node, _per_rank and _per_user
// are as published (never derived here).
type Figures struct {
	OutputTokPerS          Num  `yaml:"output_tok_per_s"`
	InputTokPerS           Num  `yaml:"input_tok_per_s"`
	TotalTokPerS           Num  `yaml:"total_tok_per_s"`
	OutputTokPerSPerGPU    Num  `yaml:"output_tok_per_s_per_gpu"`
	InputTokPerSPerGPU     Num  `yaml:"input_tok_per_s_per_gpu"`
	TotalTokPerSPerGPU     Num  `yaml:"total_tok_per_s_per_gpu"`
	OutputTokPerSPerNode   Num  `yaml:"output_tok_per_s_per_node"`
	InputTokPerSPerNode    Num  `yaml:"input_tok_per_s_per_node"`
	OutputTokPerSPerRank   Num  `yaml:"output_tok_per_s_per_rank"`
	OutputTokPerSPerUser   Stat `yaml:"output_tok_per_s_per_user"`
	PeakOutputTokPerS      Num  `yaml:"peak_output_tok_per_s"`
	RequestPerS            Num  `yaml:"request_per_s"`
	DurationS              Num  `yaml:"duration_s"`
	CompletedRequests      Num  `yaml:"completed_requests"`
	MeanConcurrency        Num  `yaml:"mean_concurrency"`
	PeakConcurrentRequests Num  `yaml:"peak_concurrent_requests"`
	TTFTMs                 Stat `yaml:"ttft_ms"`
	TPOTMs                 Stat `yaml:"tpot_ms"`
	ITLMs                  Stat `yaml:"itl_ms"`
	E2ES                   Stat `yaml:"e2e_s"`
}
