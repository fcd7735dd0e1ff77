package perf

// UseSGLangTritonFP8Rate prices the FP8 routed experts of an SGLang
// release before 0.5.10 on Hopper at SGLang's own measured Triton
// fused_moe rate instead of vLLM's (sglangFP8TritonFactor; issue #28,
// session 41, the GLM-4.x FP8 bursts of GPUStack's H200 and H100 pages).
// Trial switch, off.
//
// Trial (2026-12-07, no refit; go test ./estimate/replay -run
// TestRegimeMisses -regimemiss …): held out, moe ttft_mean 67 -> 69 of 87
// within ±30% (median 17.3% -> 16.8%), moe ttft_p99 16 -> 19 of 26 (22.3%
// -> 18.1%), moe tpot_burst 22 of 38 either way (median 22.2% -> 13.7%),
// moe throughput_burst 43 -> 42 of 47 (gs-glm45air-h100-sglang-fp8-tp2
// output +26% -> +33%); holdout split 422 -> 426 of 647, calibration 202
// of 220 unchanged, every dense and moe-ep regime unchanged. GLM-4.6 FP8
// TP4 on 4 × H200 (SGLang 0.5.3) random bursts TTFT mean +37…+63% ->
// +12…+47% (4K +39% -> +18%, 2K +37% -> +12%, 32K +63% -> +47%), ShareGPT
// +27% -> +7%; GLM-4.5-Air FP8 TP2 / TP2 EP2 ShareGPT −35% / −44% -> −42%
// / −50% (those misses are the KV-bound TP2 queue, not the prefill rate:
// 178k KV tokens a GPU, ~430 ShareGPT requests, 451 preemptions in the
// simulation). It fails the aiconfigurator ratchet: the excluded SGLang
// DeepSeek-R1 FP8 H200 TTFTs (p4-c8…c64, SGLang 0.5.7 TP8; already
// −36…−63%) median 55.2% -> 58.8%, and dstack-dsr1-h200-sglang (0.4.3.post2)
// TTFT −83…−78% -> −87…−83%.
//
// Why off: the rows it helps do not run the kernel the tables time.
// zai-org's GLM-4.5/4.6 FP8 checkpoints are compressed-tensors FP8 with
// per-channel weight scales and dynamic per-token activations (HabanaAI/
// vllm-hpu-extension PR #350, "GLM-4.5-MOE model uses the compressed tensor
// path for FP8 inference"; HabanaAI/vllm-fork PR #1837's CHANNEL-strategy
// dequant for "GLM4 fp8 models"; llm-compressor's examples/model_free_ptq/
// glm_4.6_fp8_block.py makes a separate -FP8-BLOCK copy; the checkpoints'
// own config.json files were not read, so for GLM-4.6-FP8 this is an
// inference from the family's releases), which SGLang runs
// through the Triton fused_moe with per-channel scales and its own (or no)
// tuned configs — a path no aiconfigurator SGLang table times (its Hopper
// tables, 0.5.6.post2 to 0.5.10, hold bfloat16, fp8_block and Marlin
// int4_wo; no per-channel FP8). The rows that do run block FP8
// under SGLang on Hopper (DeepSeek-R1) move the wrong way. Pricing the GLM
// rows with it would price a kernel on a measurement of another.
var UseSGLangTritonFP8Rate = false

// sglangFP8TritonPoints is how much faster SGLang's Triton fused_moe runs
// block-FP8 (w8a8, 128×128 blocks) experts than vLLM's Triton fused_moe
// does the same call, by tokens per expert (W: T·k/E), as aiconfigurator
// timed both on Hopper (commit 095f58a51c4c, systems/data/<gpu>/moe:
// sglang_fused_moe_triton fp8_block of SGLang 0.5.6.post2 on h200_sxm and
// 0.5.9 on h200_sxm and h100_sxm, against vllm_fp8moe_triton_tritonexperts
// fp8_block of vLLM 0.24.0 on the same GPU — the tables the measured
// fused-MoE curves (MoECurves) are read from). Each point is the median,
// over every row the two tables share (model shape, moe_tp, moe_ep,
// tokens, routing distribution; seven shapes from 2048/768/E128 to
// 7168/2048/E384), of vLLM's latency over SGLang's, rows binned at the
// nearest power of two of T·k/(E·EP); the three tables' medians of a bin
// lie within 0.06 of each other, and the point is their middle value:
//
//	T·k/E    1     4     16    32    64    128   256   512   1024  2048  4096
//	0.5.6p2  1.07  1.04  1.06  1.10  1.18  1.28  1.40  1.50  1.56  1.62  1.63   (h200)
//	0.5.9    0.98  1.02  1.03  1.07  1.14  1.28  1.38  1.47  1.58  1.63  1.61   (h200)
//	0.5.9    1.01  1.02  1.02  1.04  1.09  1.24  1.37  1.49  1.60  1.67  1.69   (h100)
//
// Below ~32 tokens an expert the two calls stream the same weights at the
// same rate (factor ≈ 1); from ~64 on, where the GEMMs are
// compute-bound, SGLang's kernel is 1.3–1.6× faster. The mechanism named
// by the tables is the kernel call, not a host effect: both collectors
// time one graphed fused-MoE op on one rank with the same shapes. Why
// SGLang's is faster is not established here (its per-shape tuned Triton
// configs for fp8_w8a8 with block_shape [128, 128] are a candidate, not
// verified). Left out: h100_sxm SGLang 0.5.6.post2, whose fp8_block rows
// are 6–10× slower than the same table's BF16 and than the h100 0.5.9 and
// 0.5.10 tables (12.8 ms for 4096/1536/E128 at TP 4 and 8,192 tokens
// against 1.8 ms), a broken collection.
//
// Not applied from 0.5.10 on: the 0.5.10 tables give 1.04–1.12 at 256–4096
// tokens an expert (h200_sxm 1.07, 1.10, 1.12, 1.12; h100_sxm 1.04, 1.05,
// 1.06, 1.06), so that release's kernel no longer differs from vLLM's by
// more than the tables' spread; nor where the release is unknown.
var sglangFP8TritonPoints = []MoEWidthPoint{
	{1, 1.01}, {4, 1.02}, {16, 1.03}, {32, 1.07}, {64, 1.14}, {128, 1.28},
	{256, 1.38}, {512, 1.49}, {1024, 1.58}, {2048, 1.63}, {4096, 1.63},
}

// sglangFP8TritonUntil is the first SGLang release whose table no longer
// shows the difference (sglangFP8TritonPoints).
var sglangFP8TritonUntil = [3]int{0, 5, 10}

// sglangFP8TritonFactor is the factor on the measured fused-MoE curve's
// rate for x tokens per expert: sglangFP8TritonPoints for FP8
// experts served by a known SGLang release before sglangFP8TritonUntil on a
// GPU that reads the h100_sxm or h200_sxm tables, where the fused-MoE
// kernels run the experts (the caller holds the curve: no DeepEP
// all-to-all); 1 otherwise.
func (s *StepSetup) sglangFP8TritonFactor(x float64) float64 {
	if !UseSGLangTritonFP8Rate || !s.SGLang || s.WeightDType != "fp8" || s.SGLangVersion == ([3]int{}) {
		return 1
	}
	if sys := s.Eff.Kernels.System; sys != "h100_sxm" && sys != "h200_sxm" {
		return 1
	}
	if !versionBefore(s.SGLangVersion, sglangFP8TritonUntil) {
		return 1
	}
	return moeWidthAt(sglangFP8TritonPoints, x)
}

// versionBefore reports a < b for x.y.z versions.
func versionBefore(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
