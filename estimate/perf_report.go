package estimate

import "math"

// PerfOptions tune the performance half of `vlaunch check`.
type PerfOptions struct {
	// Seed makes the simulation reproducible (--seed).
	Seed uint64
	// Requests is the number of simulated requests measured per scenario
	// (0 = max(2000, 10 × sessions), at most 20000).
	Requests int
}

// Performance is the `performance` section of the check report.
type Performance struct {
	GEMMPrecision      string     `json:"gemm_precision"`
	AttentionPrecision string     `json:"attention_precision"`
	All2All            string     `json:"all2all"`
	CUDAGraphs         bool       `json:"cuda_graphs"`
	DBO                bool       `json:"dbo"`
	Constants          Efficiency `json:"constants"`
	FLOPs              FLOPsInfo  `json:"flops"`
	Decode             DecodeInfo `json:"decode"`
	Network            NetInfo    `json:"network"`
	// Prefill is the idle-system TTFT per input length (workload and SLO lengths).
	Prefill     []PrefillPoint `json:"prefill"`
	Simulations []SimScenario  `json:"simulations"`
	// Alternatives are changed configurations run through the same models
	// (steady state, no simulation) for comparison.
	Alternatives []Alternative `json:"alternatives,omitempty"`
	// Notes are the assumptions behind these numbers, in words.
	Notes []string `json:"notes"`
}

// FLOPsInfo is the work per token (reference-scenario point 6).
type FLOPsInfo struct {
	LinearPerToken float64 `json:"linear_per_token"`
	// AttentionPerTokenAtMeanCtx / AtMaxLen are decode attention FLOPs at
	// the workload's mean context and at max_model_len.
	MeanContext              float64 `json:"mean_context"`
	AttentionPerTokenAtMean  float64 `json:"attention_per_token_at_mean_ctx"`
	AttentionPerTokenAtMax   float64 `json:"attention_per_token_at_max_len"`
	AttentionPerLayerAtMax   float64 `json:"attention_per_layer_at_max_len"`
	DecodeComputeBoundAtMax  bool    `json:"decode_attention_compute_bound_at_max_len"`
	ArithmeticIntensityRidge float64 `json:"ridge_flops_per_byte"`
}

// DecodeInfo is steady-state decoding at the SLO's concurrency and the
// curve over concurrency (reference-scenario point 7).
type DecodeInfo struct {
	Concurrency int           `json:"concurrency"`
	Point       DecodePoint   `json:"at_concurrency"`
	Step        StepTime      `json:"step"`
	Floors      Floors        `json:"floors"`
	Curve       []DecodePoint `json:"curve"`
	Saturation  DecodePoint   `json:"saturation"`
	// KVSeqsPerRank is how many sequences of mean length fit one rank's KV.
	KVSeqsPerRank int `json:"kv_seqs_per_rank"`
	// MaxOutputTokPerS is the best point of the curve within KV capacity.
	MaxOutputTokPerS float64 `json:"max_output_tokens_per_s"`
}

// NetInfo is the communication summary (reference-scenario point 8).
type NetInfo struct {
	// InterBytesPerTokenPass is what one token's forward pass pushes
	// through NICs (all MoE layers, dispatch + combine).
	InterBytesPerTokenPass float64 `json:"inter_bytes_per_token_pass"`
	IntraBytesPerTokenPass float64 `json:"intra_bytes_per_token_pass"`
	// DecodeStepS is the all-to-all time of one decode step at the SLO's
	// concurrency; DecodeStepShare its share of the step.
	DecodeStepS     float64 `json:"decode_step_all2all_s"`
	DecodeStepShare float64 `json:"decode_step_share"`
	InterGBytesPerS float64 `json:"inter_node_gbytes_per_s_per_node"`
	Routing         Routing `json:"routing"`
}

// SimScenario is one simulation run and what it modelled.
type SimScenario struct {
	InputTokens  int       `json:"input_tokens"`
	OutputTokens int       `json:"output_tokens"`
	Sessions     int       `json:"sessions,omitempty"`
	RatePerS     float64   `json:"arrival_rate_per_s,omitempty"`
	Seed         uint64    `json:"seed"`
	Result       SimResult `json:"result"`
}

// meanContext is the average context of a decoding sequence: the prompt
// plus half the output.
func meanContext(in *Input) float64 {
	return float64(in.Workload.InputTokens) + float64(in.Workload.OutputTokens)/2
}

func (sm *StepModel) flopsInfo(in *Input) FLOPsInfo {
	m := in.Model
	ctx := meanContext(in)
	f := FLOPsInfo{LinearPerToken: LinearFLOPsPerToken(m), MeanContext: ctx,
		AttentionPerTokenAtMean: AttentionDecodeFLOPsPerToken(m, ctx),
		AttentionPerTokenAtMax:  AttentionDecodeFLOPsPerToken(m, float64(in.MaxModelLen))}
	f.AttentionPerLayerAtMax = f.AttentionPerTokenAtMax / float64(m.NumLayers)
	// Decode attention reads kvBytesTokLayer per context token per layer
	// and does attnDecCoef FLOPs on it: compute-bound when that intensity
	// exceeds the GPU's ridge point (peak FLOPs / bandwidth).
	f.ArithmeticIntensityRidge = sm.S.attnFLOPS(true) / sm.S.HW.HBMBytesPerS
	if sm.kvBytesTokLayer > 0 {
		f.DecodeComputeBoundAtMax = sm.attnDecCoef*float64(sm.S.TP)/sm.kvBytesTokLayer > f.ArithmeticIntensityRidge
	}
	return f
}

func (sm *StepModel) decodeInfo(in *Input, kvTokensPerRank int64) DecodeInfo {
	ctx := meanContext(in)
	c := max(1, in.Workload.Concurrency)
	d := DecodeInfo{Concurrency: c}
	d.Point, d.Step = sm.DecodeAt(c, ctx)
	d.Floors = sm.FloorsAt(c, ctx)
	full := float64(in.Workload.InputTokens + in.Workload.OutputTokens)
	if kvTokensPerRank > 0 {
		d.KVSeqsPerRank = int(float64(kvTokensPerRank) / full)
	}
	d.Curve = sm.DecodeCurve(ctx, max(1, in.MaxNumSeqs), d.KVSeqsPerRank)
	d.Saturation = Saturation(d.Curve)
	for _, p := range d.Curve {
		if !p.KVCapped {
			d.MaxOutputTokPerS = math.Max(d.MaxOutputTokPerS, p.OutputTokPerS)
		}
	}
	return d
}

func (sm *StepModel) netInfo(d DecodeInfo) NetInfo {
	n := NetInfo{Routing: sm.route, InterGBytesPerS: sm.S.HW.InterBytesPerSPerNode / 1e9,
		DecodeStepS: d.Step.A2AS * float64(sm.S.PP)}
	if d.Step.TotalS > 0 {
		n.DecodeStepShare = n.DecodeStepS / d.Step.TotalS
	}
	one := sm.StepUniform(RankLoad{DecodeSeqs: 1, DecodeCtx: 1})
	tokens := float64(sm.S.DP) * float64(1+sm.S.SpecTokens)
	n.InterBytesPerTokenPass = one.InterBytesPerNode * float64(sm.nodes) / tokens
	n.IntraBytesPerTokenPass = one.IntraBytesPerGPU * float64(sm.S.TP*sm.S.DP) / tokens
	return n
}

func (s *StepSetup) precisions() (gemm, attn string) {
	gemm = "bf16"
	if s.gemmFLOPS() == s.HW.FP8FLOPS && s.HW.FP8FLOPS > 0 && s.WeightDType == "fp8" {
		gemm = "fp8"
	}
	attn = "bf16"
	if s.attnFLOPS(true) == s.HW.FP8FLOPS && s.KVDType == "fp8" && s.Model.IsMLA() {
		attn = "fp8 (decode)"
	}
	return gemm, attn
}
