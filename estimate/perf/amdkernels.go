package perf

import "github.com/vlaunch/vlaunch/catalog"

// UseAMDKernelFigures gives the AMD Instinct GPUs (catalog mi300x, mi325x,
// mi355x) the kernel figures AMD's own published measurements cite for
// them (amdFigures) in place of the global fitted efficiencies where a
// measurement covers the operation, through the cited-figures mechanism
// the H20 uses (citedKernels, forCited; unscaled, like the H20's:
// citedScaledByMeasuredCompute). No aiconfigurator table covers an AMD
// GPU (issue #28: "keep first principles where they do not (H20, H800,
// AMD)"), and the global constants are fitted mostly on NVIDIA rows,
// whose libraries reach a far larger share of the datasheet peak than
// ROCm's: AMD's own sustained GEMM figures are 0.47–0.65 of the dense
// peak where the global constants price 0.62 (BF16) and 0.79 (FP8).
//
// Trial of 2026-12-06 (branch amdkern, no refit), off → on: calibration
// 168 → 170 of 184 within ±30% (vllm-recipes-pr127's Llama-3.3-70B FP8 on
// one MI355X: TTFT mean −32% → −28%, p99 −33% → −29%, by the prefill
// attention alone); throughput holdout 163 → 163 of 375, holdout split
// 142 → 142 of 295; the MoE and moe-ep regimes unchanged (only the legacy
// class moves: TTFT mean 1 → 2 of 21 within ±30%, median |error| 77% →
// 74%). The AMD rows move the right way but little: inferencex-pr-3318's
// DeepSeek-R1 on 8 × MI325X TTFT −77…−55% → −74…−47%, dstack-dsr1 TTFT
// −82…−77% → −79…−74%, because an 8K-token prefill there is mostly the
// uncited fused-MoE experts (ExpertGEMM) and the TP all-reduce (on: dense
// 38.7 ms, experts 78.4, attention 40.1, all-reduce 59.8 of ≈230; off:
// 21.6, 78.4, 20.7, 59.8), which these figures do not touch. Adopted.
var UseAMDKernelFigures = true

// amdFigures are the AMD GPUs' cited kernel rates, fractions of the
// catalog's dense peaks (MI300X and MI325X 1,307.4 TF BF16 / 2,614.9 FP8,
// MI355X 2,500 / 5,000):
//
//   - GEMMBF16, GEMMFP8 (MI325X 0.47, 0.44): AMD's Typical Attained FLOPs
//     (ROCm/rocm-blogs, "Completing the GPU Performance Picture:
//     Understanding TAF Alongside Peak FLOPs and MAF", 2026-10-06): one
//     MI325X (1,000 W, ROCm 7.2.1, mblas-bench, normal-distribution
//     inputs), the FLOP-weighted harmonic mean over ten DeepSeek-V3 GEMM
//     shapes (N, K from 2112×7168 to 7168×256 at M = 32 and 32,768): BF16
//     616.42 TF (616.42 / 1,307.4 = 0.471), unscaled FP8 1,143.18 TF
//     (/ 2,614.9 = 0.437). TAF is the reading nearest aiconfigurator's
//     GEMMBF16 (a median over serving shapes); the same blog's
//     Max-Achievable FLOPs, the best of a sweep on a tuned shape
//     (M 4096, N 4864, K 32896), are 831.40 / 1,408.06 TF (0.64 / 0.54),
//     the ceiling.
//   - GEMMBF16, GEMMFP8 (MI300X 0.40, 0.37): no TAF is published for the
//     MI300X. It is the MI325X's gfx942 die and hipBLASLt kernels at
//     750 W instead of 1,000 W, whose dense-GEMM clock is lower: AMD's
//     Max-Achievable FLOPs of both, one method, one date (ROCm/rocm-blogs
//     blogs/software-tools-optimization/measuring-max-achievable-flops-
//     part2/README.md at commit 8e011952aebc, 2025-02-28, Table 1,
//     hipBLASLt commit db8e93b4fd6, ROCm 6.3.0) are BF16 708 TF at
//     1,207 MHz against 843 at 1,447, FP8 1,273 at 1,230 against 1,519 at
//     1,464. The MI300X's typical rate is the MI325X's TAF times that
//     ratio: BF16 616.42 × 708 / 843 = 517.7 TF (0.396), FP8
//     1,143.18 × 1,273 / 1,519 = 958.0 TF (0.366). Its own MAF, 708 / 1,273
//     TF (0.54 / 0.49), is the ceiling.
//   - PrefillAttn (MI300X, MI325X 0.17…0.41; MI355X 0.17…0.56): AITER's
//     assembly FlashAttention forward (fwd_v3, which aiter's mha_fwd
//     dispatches to for BF16 head dim 128; which attention kernel each
//     vLLM/SGLang release runs on ROCm was not established here: CK or
//     Triton kernels are not faster, so for them this is an upper
//     bound), causal, batch 1, 64
//     query and 8 KV heads, head dim 128, BF16, at 1, 2, 4, 8 and 16 Ki
//     tokens (ROCm/aiter op_tests/cpp/mha/README.md at commit
//     0403bcdfd0b5, causal FLOPs halved as this package counts them):
//     MI300X 228.54, 392.43, 474.39, 518.29, 541.55 TF; MI355X 432.57,
//     936.44, 1,046.09, 1,300.11, 1,392.49 TF. The MI325X runs the same
//     gfx942 kernel; no MI325X table was found, so it takes the MI300X's
//     figures, a lower bound (its GEMM clock is 1.19× the MI300X's).
//
// Not cited, so the global constants: the MI355X's GEMMs (no hipBLASLt
// table on an MI355X was found; HipKittens' research kernel reaches
// 1,610 TF BF16 at 8192³, arXiv 2511.08083 Table 2, 0.64 of the peak,
// which does not contradict the global 0.62), decode attention, HBM, the
// kernel gap, the fused-MoE experts, the all-reduce and the host. No
// aiconfigurator system, NCCL table or MoE curve is pretended.
var amdFigures = map[string]KernelFigures{
	"mi300x": {
		Cited:       "cited AMD measurements (AMD MAF/TAF hipBLASLt GEMM, AITER FlashAttention fwd_v3)",
		GEMMBF16:    0.40,
		GEMMFP8:     0.37,
		PrefillAttn: [5]float64{0.17, 0.30, 0.36, 0.40, 0.41},
	},
	"mi325x": {
		Cited:       "cited AMD measurements (AMD TAF hipBLASLt GEMM, AITER FlashAttention fwd_v3 on MI300X)",
		GEMMBF16:    0.47,
		GEMMFP8:     0.44,
		PrefillAttn: [5]float64{0.17, 0.30, 0.36, 0.40, 0.41},
	},
	"mi355x": {
		Cited:       "cited AMD measurements (AITER FlashAttention fwd_v3)",
		PrefillAttn: [5]float64{0.17, 0.37, 0.42, 0.52, 0.56},
	},
}

// amdKernels are an AMD GPU's cited figures behind UseAMDKernelFigures.
func amdKernels(g *catalog.GPU) (KernelFigures, bool) {
	if g == nil || !UseAMDKernelFigures {
		return KernelFigures{}, false
	}
	k, ok := amdFigures[g.ID]
	return k, ok
}
