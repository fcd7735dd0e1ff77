package perf

import "github.com/vlaunch/vlaunch/catalog"

// UseSGLangQKNormOps adds to the kernel census (eager.go), for an SGLang
// release of 0.5.6 or earlier serving a model with per-head q/k RMSNorms
// (Qwen3, Qwen3-MoE, GLM-4.5/4.6's use_qk_norm: catalog.Model.QKNorm), the
// kernels those norms launch: per attention layer a copy and an RMSNorm
// for q and for k, four kernels. They count as launches in an eager
// prefill (SGLang before 0.5.10 runs prefill without graphs:
// sglangeager.go) and as kernel gaps in every step.
//
// Why four. Before sgl-project/sglang PR #15835 (DarkSharpness, opened
// 2025-12-25, merged; read through the issues index: "Too many redundant
// code _apply_qk_norm", replaced by a shared apply_qk_norm with a JIT fused
// in-place q/k norm on CUDA, "E2E around 1~2% on Qwen3 models"), each model
// file had its own _apply_qk_norm: q.reshape(-1, head_dim), self.q_norm on
// it, the same for k, then a view back. q and k are last-dimension slices
// of the fused QKV projection's output (qkv.split), so their rows are
// strided over the K/V columns and the flatten cannot be a view: reshape
// copies the tensor. sgl-project/sglang PR #39071 (2026-09-11, the ROCm
// path, where the fused kernel stayed gated off) measures exactly this on
// Qwen3-8B: q (T, 32, 128) stride (6144, 128, 1), "reshape(-1,128) shares
// storage: False", "a whole-tensor device copy every layer, every forward".
// At one token the flatten is a view (a size-1 dimension merges whatever
// its stride), so a one-sequence decode step launches two of the four: the
// census is static and over-counts that step by two kernel gaps a layer
// (Qwen3-235B on B200: 94 × 2 × 1.79 µs = 0.34 ms). Under CUDA-graph
// capture the per-model form runs k's copy and norm on an alternate stream
// beside q's (alt_stream: sgl-project/sglang PR #7740, "Two-stream norm
// for Qwen3", plumbed into the Qwen2/Qwen3 dense and MoE layers; the
// branch is taken only in capture mode), so a graphed step's critical path
// holds two of the four (sglangQKNormAltStream): the kernel gaps count
// two, the eager launches four.
//
// Which releases: 0.5.6 was out by 2025-12-04 (SemiAnalysisAI/InferenceX
// issue #275 of that date names the lmsysorg/sglang:v0.5.6-cu129 image),
// three weeks before PR #15835 was opened, so 0.5.6 and earlier run the
// per-model form. 0.5.7 was out by 2026-01-05 (InferenceX issue #385);
// whether it carries PR #15835 is not read, so from 0.5.7 on, and for an
// unknown release, nothing is added (later releases fuse the pair, or fuse
// it into the rotary embedding: fused_qk_norm_rope, PR #19059).
// Step-3.x's census (sglangstep3p5.go) is its own, for SGLang 0.5.8 builds.
//
// On since 2026-12-07 (issue #28, session 43, no refit): moe ttft_mean 69
// -> 70 of 87 within ±30% (the cookbook's Qwen3-235B 1K/8K c1 TTFT -37% ->
// -25%: its eager prefill launches 188 dense-GQA-equivalent layers, not
// 153.8), moe throughput 62 of 79 unchanged (median 9.9%), holdout split
// 457 -> 458 of
// 647; calibration 202 of 220, aiconfigurator 111 of 141 and the dense
// anchors unchanged. It moves SGLang's Qwen3-235B B200 rows (0.5.6, held
// out), GPUStack's Qwen3-14B (0.5.5.post1) and GLM-4.6 (0.5.3) SGLang rows,
// none of which a constant was fitted to. Counting all four kernels as
// gaps on the graphed decode too (no alternate stream) would have put moe
// throughput at 66 of 79 (the Qwen3-235B c1/c16 rows +31…+34% -> +25…
// +29%), but the alternate stream is in the release's model file, so that
// is not what 0.5.6 runs.
var UseSGLangQKNormOps = true

// sglangQKNormKernelsPerLayer is q's copy and RMSNorm and k's (above).
const sglangQKNormKernelsPerLayer = 4

// sglangQKNormUntil is the first SGLang release not known to run the
// per-model _apply_qk_norm (above).
var sglangQKNormUntil = [3]int{0, 5, 7}

// sglangQKNormKernels is the kernels SGLang's per-head q/k norms add to
// one stage's census over its attention layers (UseSGLangQKNormOps).
func sglangQKNormKernels(m *catalog.Model, s *StepSetup, attnLayers float64) float64 {
	if !UseSGLangQKNormOps || !s.SGLang || s.SGLangVersion == ([3]int{}) || !versionBefore(s.SGLangVersion, sglangQKNormUntil) {
		return 0
	}
	if !m.QKNorm || m.QKNormAllHeads || m.DSV4 != nil || m.NAS != nil || m.Step3p5 != nil {
		return 0
	}
	return sglangQKNormKernelsPerLayer * attnLayers
}

// sglangQKNormAltStream is the kernels of sglangQKNormKernels that the
// alternate stream takes off a graphed step's critical path (k's copy and
// norm, above); they stay in the eager launch count, where the else branch
// runs all four on one stream. Every SGLang step the census prices with
// gaps rather than launches is a graphed decode, so the gaps take them off.
func sglangQKNormAltStream(m *catalog.Model, s *StepSetup, attnLayers float64) float64 {
	return sglangQKNormKernels(m, s, attnLayers) / 2
}
