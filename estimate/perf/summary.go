package perf

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/estimate/input"
)

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
	// KVSeqsPerRank is how many sessions (KVSessionTokens) or sequences of
	// input + output tokens fit one rank's KV, as the memory model counts them (its caller's figure).
	KVSeqsPerRank int `json:"kv_seqs_per_rank"`
	// KVSessionTokens is the context KVSeqsPerRank counts a session at
	// when the workload states session_tokens (the capacity section's
	// unit); 0: one request's input + output tokens.
	KVSessionTokens int `json:"kv_session_tokens,omitempty"`
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

// FLOPsInfo derives the work per token for in (the model of sm).
func (sm *StepModel) FLOPsInfo(in *input.Input) FLOPsInfo {
	m := in.Model
	ctx := in.MeanContext()
	f := FLOPsInfo{LinearPerToken: LinearFLOPsPerToken(m), MeanContext: ctx,
		AttentionPerTokenAtMean: AttentionDecodeFLOPsPerToken(m, ctx),
		AttentionPerTokenAtMax:  AttentionDecodeFLOPsPerToken(m, float64(in.MaxModelLen))}
	f.AttentionPerLayerAtMax = f.AttentionPerTokenAtMax / float64(m.NumLayers)
	// Decode attention reads kvBytesTokLayer per context token per layer
	// and does attnDecCoef FLOPs on it: compute-bound when that intensity
	// exceeds the GPU's ridge point (peak FLOPs / bandwidth).
	f.ArithmeticIntensityRidge = sm.S.attnFLOPS(true) / sm.S.HW.HBMBytesPerS
	switch {
	case sm.dsv4 != nil:
		// One rank's kernel: its padded heads over the replicated entries.
		f.DecodeComputeBoundAtMax = sm.attnDecCoef/sm.kvBytesTokLayer > f.ArithmeticIntensityRidge
	case sm.kvBytesTokLayer > 0:
		f.DecodeComputeBoundAtMax = sm.attnDecCoef*float64(sm.S.TP)/sm.kvBytesTokLayer > f.ArithmeticIntensityRidge
	}
	return f
}

// DecodeInfo is steady decoding at the workload's concurrency and mean
// context, its floors and the curve over concurrency up to max_num_seqs,
// marked where a rank's KV no longer holds the sessions: kvSeqsPerRank is
// how many sessions (of workload.session_tokens where stated, else
// sequences of input + output tokens) fit one rank's KV as the
// memory model counts them (whole blocks, a hybrid's per-sequence state:
// memory.Report.SequencesFit), 0 when unknown. Dividing the pool's tokens
// by a sequence's here instead overcounted hybrid and DeepSeek-V4 layouts
// up to 4.5-fold against the capacity section of the same report.
func (sm *StepModel) DecodeInfo(in *input.Input, kvSeqsPerRank int) DecodeInfo {
	ctx := in.MeanContext()
	c := max(1, in.Workload.Concurrency)
	d := DecodeInfo{Concurrency: c}
	d.Point, d.Step = sm.DecodeAt(c, ctx)
	d.Floors = sm.FloorsAt(c, ctx)
	d.KVSeqsPerRank = max(kvSeqsPerRank, 0)
	if in.Workload.SessionTokens > 0 {
		d.KVSessionTokens = in.Workload.SessionTokens
	}
	d.Curve = sm.DecodeCurve(ctx, max(1, in.MaxNumSeqs), d.KVSeqsPerRank)
	// Saturation within KV capacity: the curve's last point may lie past
	// it (KVCapped), and "saturates near 1024 sessions" beside "KV fits
	// 824" named a load the deployment cannot hold.
	within := d.Curve
	for len(within) > 1 && within[len(within)-1].KVCapped {
		within = within[:len(within)-1]
	}
	d.Saturation = Saturation(within)
	for _, p := range d.Curve {
		if !p.KVCapped {
			d.MaxOutputTokPerS = math.Max(d.MaxOutputTokPerS, p.OutputTokPerS)
		}
	}
	return d
}

// NetInfo summarises the communication of the decode point d.
func (sm *StepModel) NetInfo(d DecodeInfo) NetInfo {
	n := NetInfo{Routing: sm.route, InterGBytesPerS: sm.S.a2aInterBytesPerS() / 1e9,
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

// Precisions names the precision the GEMMs and the attention run in.
func (s *StepSetup) Precisions() (gemm, attn string) {
	gemm = "bf16"
	switch {
	case s.gemmFLOPS() == s.HW.FP8FLOPS && s.HW.FP8FLOPS > 0 && s.WeightDType == "fp8":
		gemm = "fp8"
	case s.int8AsFP8():
		gemm = "int8 (at FP8's measured GEMM efficiency: equal INT8 and FP8 peaks)"
	case s.WeightDType == "int8" && s.HW.INT8OPS > 0:
		gemm = "int8"
	case s.WeightDType == "int8":
		gemm = "int8 at the bf16 rate (no INT8 peak known for this GPU)"
	case s.WeightDType == "nvfp4" && s.HW.FP4FLOPS > 0:
		// What prices the dense projections: the measured NVFP4 table
		// (UseNVFP4DenseGEMM), the BF16 table (an NVFP4 MoE checkpoint
		// without it), or the scalar roofline at the FP4 peak (gemmFLOPS).
		switch d := newDenseGEMMs(s); {
		case d != nil && d.has(GEMMTableNVFP4):
			gemm = "nvfp4"
		case d == nil:
			gemm = "fp4 roofline"
		}
	}
	attn = "bf16"
	if s.attnFLOPS(true) == s.HW.FP8FLOPS && s.KVDType == "fp8" && s.Model.IsMLA() {
		attn = "fp8 (decode)"
	}
	return gemm, attn
}

// AttentionIntensity is decode attention FLOPs per KV byte on one GPU.
func AttentionIntensity(in *input.Input) float64 {
	s := SetupFromInput(in)
	kv := kvBytesPerTokenLayerGPU(&s)
	if kv == 0 {
		return 0
	}
	return attnDecodeCoef(in.Model) / float64(in.Layout.TP) / kv
}

// ModeBytesPerToken is what one token's forward pass would push through
// NICs with DeepEP high-throughput and low-latency kernels (dispatch FP8 +
// scales when the weights are FP8, BF16 otherwise; combine BF16).
func ModeBytesPerToken(in *input.Input, r Routing) (ht, ll float64) {
	h := float64(in.Model.HiddenSize)
	dispatch := 2 * h
	if in.WeightsDType == "fp8" {
		dispatch = h * (1 + 4.0/128)
	}
	perCopy := (dispatch + 2*h) * float64(in.Model.MoELayerCount())
	return r.RemoteNodes * perCopy, r.RemoteExpertCopies * perCopy
}

// KVFitsText says what the curve's KV limit counts: "KV fits 47 sequences
// of input+output per rank", or with workload.session_tokens "KV fits 2
// sessions of 32768 tokens (workload.session_tokens) per rank".
//
// 0 is a pool vLLM refuses to start with (no KV blocks, or one
// max_model_len sequence that does not fit: slo's kvOf); "KV fits 0
// sequences" beside a pool of 43,215 tokens read as a miscount (qa41b).
func (d DecodeInfo) KVFitsText() string {
	if d.KVSeqsPerRank == 0 {
		return "KV holds no sequence: vLLM does not start with this KV pool (the memory section says why)"
	}
	if d.KVSessionTokens > 0 {
		return fmt.Sprintf("KV fits %d sessions of %d tokens (workload.session_tokens) per rank", d.KVSeqsPerRank, d.KVSessionTokens)
	}
	return fmt.Sprintf("KV fits %d sequences of input+output per rank", d.KVSeqsPerRank)
}
