package perf

// UseNonBlockFP8MoERate prices routed experts whose FP8 checkpoint carries
// no weight_block_size (one scale per tensor or per output channel, e.g.
// zai-org's compressed-tensors GLM-4.x FP8) on Hopper at the measured rate
// of the non-block fp8_w8a8 Triton fused_moe instead of the block-scaled
// one the FP8 MoE curve was read from (nonBlockFP8Factor; issue #28,
// fp8moe44). See docs/calibration-analysis.md, "December 2026: the
// non-block FP8 fused-MoE rate on Hopper".
var UseNonBlockFP8MoERate = true

// nonBlockFP8Points is how much faster the Triton fused_moe runs experts
// with per-tensor FP8 scales than with 128 × 128 block scales, by tokens
// per expert (T·k/E), on one GPU: the median over every row that times
// both at the same model shape, layout (moe_tp × moe_ep ≤ 8),
// tokens and balanced routing, of the fp8_block latency over the fp8
// latency, rows binned at the nearest power of two of T·k/E. The tables
// are aiconfigurator's (ai-dynamo/aiconfigurator 095f58a51c4c,
// systems/data/<gpu>/moe/vllm/<release>/moe_perf.parquet) for vLLM 0.18.0,
// 0.19.0 and 0.22.0 on h200_sxm and 0.19.0 on h100_sxm, whose collector
// (collector/vllm/collect_moe.py before d5bad971c) times vLLM's Triton
// fused_experts with fp8_w8a8_moe_quant_config: per-expert weight scales
// and a static per-tensor activation scale for "fp8", block_shape
// [128, 128] for "fp8_block", BF16 for "bfloat16", on the same shapes.
// H200 points are the middle of the three releases' medians (they lie
// within 0.1 of each other):
//
//	T·k/E      1     4     16    64    128   256   512   1024  2048  4096
//	h200 0.18  1.00  1.11  1.12  1.13  1.41  1.45  1.56  1.65  1.75  1.74
//	h200 0.19  1.00  1.10  1.12  1.14  1.41  1.47  1.57  1.64  1.77  1.77
//	h200 0.22  1.02  1.09  1.11  1.11  1.37  1.41  1.53  1.60  1.73  1.71
//	h100 0.19  1.00  1.03  1.06  1.12  1.30  1.40  1.52  1.53  1.56  1.58
//
// Against BF16 the same rows give the per-tensor kernel 1.5–1.6× the BF16
// rate at 128–1024 tokens an expert (median; 1.4× at 384-wide TP slices,
// 2.0–2.1× at 2,048–2,560-wide ones), where the block-scaled kernel runs
// 0.9× (384 wide) to 1.4× (2,560 wide) BF16. The mechanism: a per-tensor (or per-channel)
// kernel applies its scales once after the K loop, a block-scaled one
// every 128 of K.
//
// Left out: vLLM 0.14.0's tables (h100_sxm, h200_sxm), whose "fp8" rows
// run at 1.0–1.1× BF16 at 128–1024 tokens an expert while their BF16 rows
// match 0.19.0's: vLLM's default Triton config for non-block FP8 then
// took BLOCK_SIZE_K = 32 (changed by vllm-project/vllm PR #34846, merged
// 2026-02-18, "many-expert models see up to 2x speedup at large batch
// size"), so those rows time an untuned tile, not the kernel's rate.
// vLLM 0.24.0's "fp8" rows time ModelOpt's FlashInfer-CUTLASS path, a
// different kernel (MoECurves).
var nonBlockFP8Points = map[string][]MoEWidthPoint{
	"h200_sxm": {{1, 1.00}, {4, 1.10}, {16, 1.12}, {64, 1.13}, {128, 1.41}, {256, 1.45}, {512, 1.56}, {1024, 1.64}, {2048, 1.75}, {4096, 1.74}},
	"h100_sxm": {{1, 1.00}, {4, 1.03}, {16, 1.06}, {64, 1.12}, {128, 1.30}, {256, 1.40}, {512, 1.52}, {1024, 1.53}, {2048, 1.56}, {4096, 1.58}},
}

// nonBlockFP8Factor is the factor on the measured FP8 fused-MoE curve's
// rate at x tokens per expert for experts stored in FP8 without block
// scales (no weight_block_size, not ModelOpt's FlashInfer-CUTLASS format)
// on a GPU that reads the h100_sxm or h200_sxm tables (nonBlockFP8Points);
// 1 otherwise. The caller holds the curve, so the fused-MoE kernels run
// the experts.
func (s *StepSetup) nonBlockFP8Factor(x float64) float64 {
	if !UseNonBlockFP8MoERate || s.WeightDType != "fp8" || s.Model == nil {
		return 1
	}
	q := s.Model.Quant
	if len(q.WeightBlockSize) == 2 || q.Format != "" || q.ExpertFormat != "" {
		return 1
	}
	pts, ok := nonBlockFP8Points[s.Eff.Kernels.System]
	if !ok {
		return 1
	}
	return moeWidthAt(pts, x)
}
