package perf

// UseMeasuredMoEStream streams a decode step's routed-expert weights at
// the rate a measured fused-MoE table shows for the kernel the serving
// engine runs, where one was derived (moeStreamBytesPerS), instead of at
// Efficiency.HBM × Efficiency.ExpertHBM of the GPU's peak (fitted on
// Hopper's Triton and vLLM's FP8 kernels). Issue #28: SGLang's
// flashinfer_trtllm NVFP4 MoE on B300 streams its experts at ~0.92 of
// the peak where the fitted rate is 0.67, and DeepSeek-R1 NVFP4's decode
// TPOT came out 31–48% slow at 16–32 sequences.
var UseMeasuredMoEStream = true

// moeStream is a measured expert-weight streaming rate: the kernel family
// it timed and the rate.
type moeStream struct {
	// Engine is the serving engine whose MoE runner the table timed
	// ("sglang"); the rate applies to that engine's rows only.
	Engine string
	// BytesPerS is the marginal weight bytes per second between two
	// balanced token counts of the weight-streaming regime (the slope:
	// the call's fixed cost is not in it).
	BytesPerS float64
}

// moeStreamBytesPerS are the measured rates by aiconfigurator system and
// expert dtype. b300_sxm nvfp4: aiconfigurator 095f58a5 aic-core/src/
// aiconfigurator_core/systems/data/b300_sxm/moe/sglang/0.5.14/
// moe_perf.parquet (SGLang 0.5.12 reuses this table: 0.5.12/reuse.yaml),
// kernel_source sglang_flashinfer_trtllm_moe, moe_dtype nvfp4, DeepSeek-
// R1's shape (hidden 7,168, inter 2,048, 256 experts, top 8), moe_tp 1,
// balanced routing (each expert one token at T·8 = 256 pairs): EP4 0.1400
// ms at 16 tokens (32 local experts hit), 0.2499 ms at 32 (64 hit):
// 32 × 24,772,608 B (3·7168·2048 weights at 4.5 bits) in 0.1099 ms =
// 7.21e12 B/s; EP8 0.08375 → 0.13955 ms for 16 more experts: 7.10e12
// B/s. Their mean, 7.16e12 B/s (0.92 of the 7.75e12 the B300 entry
// carries). TestMoEStreamRate re-derives it.
var moeStreamBytesPerS = map[string]map[string]moeStream{
	"b300_sxm": {"nvfp4": {Engine: "sglang", BytesPerS: 7.16e12}},
}

// expertStreamRate is the measured streaming rate for this deployment's
// experts (0: none, the fitted rate applies): the switch on, the GPU's
// table system and the weights dtype derived, the engine the one timed,
// and the measured fused-MoE curve in use (moeCurve: not DeepGEMM's
// experts under a point-to-point all-to-all).
func (s *StepSetup) expertStreamRate() float64 {
	if !UseMeasuredMoEStream || s.moeCurve() == nil {
		return 0
	}
	m, ok := moeStreamBytesPerS[s.Eff.Kernels.System][s.WeightDType]
	if !ok || (m.Engine == "sglang") != s.SGLang {
		return 0
	}
	return m.BytesPerS
}
