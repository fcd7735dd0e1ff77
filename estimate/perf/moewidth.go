package perf

import "math"

// UseMoEWidth switches the fused-MoE width factor (MoEWidths) on: TP-sharded
// experts priced by a measured curve run at the curve's rate times the
// factor of their slice's width. Off by default: a trial of issue #28 (the
// fitted constants were fitted without it; docs/calibration-analysis.md,
// "GEMM tables with the width factor", has its numbers). Read when a step
// is priced.
var UseMoEWidth = false

// MoEWidthPoint is one point of a fused-MoE width factor: at expert width
// W (the expert's intermediate width on one GPU, I/TP), the layer's rate
// is Factor times the pooled curve's (MoECurve) at the same tokens per
// expert.
type MoEWidthPoint struct{ W, Factor float64 }

// MoEWidths are one GPU's width factors by the experts' dtype, matching
// MoECurves field for field; an empty slice is factor 1.
//
// Why: a MoECurve pools every model shape and TP layout of the tables at a
// given number of tokens per expert, so it prices a wide expert and a
// narrow TP slice alike. The tables say they differ: relative to the pooled
// curve the rate tracks the slice's width, from ×0.4–0.6 at w = 128 to
// ×1.1–1.3 at 1–4 Ki (H200 FP8 block ×0.41, 0.66, 0.88, 1.05, 1.17 at
// w = 128 … 2048). DeepSeek-V3/R1's experts at TP 8 are 2048 / 8 = 256
// wide. The mechanism: vLLM's Triton fused_moe launches cdiv(EM, BLOCK_M) ×
// cdiv(N, BLOCK_N) programs with N = 2·w for the gate/up GEMM, and block
// FP8 holds BLOCK_SIZE_K at the 128-wide quantization block, so a narrow
// slice gives the GPU few tiles and the down projection (K = w) short K
// loops (vllm/model_executor/layers/fused_moe/fused_moe.py,
// invoke_fused_moe_kernel and try_get_optimal_moe_config).
//
// Read by tools/aicdata moewidth (its doc comment states the selection
// rule; the output is tools/aicdata/moe_width.json) from the same vLLM
// 0.24.0 moe_perf tables as the curves (aiconfigurator commit 095f58a51c4c):
// per width bin (the nearest power of two of I/TP), the median over rows
// with EP 1, TP ≤ 8 and ≥ 32 tokens per expert of the row's achieved rate
// over the pooled curve; bins of ≥ 20 rows from ≥ 2 model shapes.
//
// Which have factors: BF16, FP8 (the fp8_block rows the FP8 curve is read
// from) on H100, H200, B200, B300 and GB200, and NVFP4 on B200, B300 and
// GB200 — every curve estimate/perf uses except MXFP4. MXFP4 keeps factor 1:
// its curve is read unscaled from two gpt-oss shapes of one width
// (I = 2880) and adopted against one P/D bound (mxfp4Unscaled). Every GPU
// without curves (H20, AMD, A100, L40S, RTX Pro 6000; the H800 reads the
// H100's curves, UseSharedDieTables) prices experts
// with ExpertGEMM and has no factor, and so do EP'd experts (whole experts,
// width I; and DeepGEMM with DeepEP) and experts on one GPU (TP × DP = 1):
// moeWidthFactor is 1 there.
type MoEWidths struct {
	BF16, FP8, NVFP4 []MoEWidthPoint
}

// moeWidths are the factors per aiconfigurator system (tools/aicdata
// moewidth -format go).
var moeWidths = map[string]*MoEWidths{
	"h100_sxm": {
		BF16: []MoEWidthPoint{{64, 0.279}, {128, 0.655}, {256, 0.863}, {512, 1.14}, {1024, 1.24}, {2048, 1.27}, {4096, 1.3}, {8192, 1.29}, {16384, 1.21}},
		FP8:  []MoEWidthPoint{{128, 0.398}, {256, 0.691}, {512, 0.916}, {1024, 1.11}, {2048, 1.2}, {4096, 1.2}, {8192, 1.27}, {16384, 1.32}},
	},
	"h200_sxm": {
		BF16: []MoEWidthPoint{{64, 0.251}, {128, 0.624}, {256, 0.838}, {512, 1.1}, {1024, 1.24}, {2048, 1.3}, {4096, 1.37}, {8192, 1.34}, {16384, 1.36}},
		FP8:  []MoEWidthPoint{{128, 0.405}, {256, 0.655}, {512, 0.882}, {1024, 1.05}, {2048, 1.17}, {4096, 1.17}, {8192, 1.24}, {16384, 1.32}},
	},
	"b200_sxm": {
		BF16:  []MoEWidthPoint{{128, 0.612}, {256, 0.916}, {512, 1.08}, {1024, 1.15}, {2048, 1.16}, {4096, 1.08}, {8192, 0.819}, {16384, 0.784}},
		FP8:   []MoEWidthPoint{{128, 0.608}, {256, 0.897}, {512, 1.04}, {1024, 1.18}, {2048, 1.24}, {4096, 1.18}, {8192, 1.21}, {16384, 1.12}},
		NVFP4: []MoEWidthPoint{{128, 0.388}, {256, 0.645}, {512, 0.947}, {1024, 1.24}, {2048, 1.32}, {4096, 1.23}, {8192, 1.43}, {16384, 1.25}},
	},
	"b300_sxm": {
		BF16:  []MoEWidthPoint{{128, 0.625}, {256, 0.927}, {512, 1.09}, {1024, 1.17}, {2048, 1.17}, {4096, 1.09}, {8192, 0.818}, {16384, 0.781}},
		FP8:   []MoEWidthPoint{{128, 0.603}, {256, 0.897}, {512, 1.05}, {1024, 1.18}, {2048, 1.25}, {4096, 1.19}, {8192, 1.19}, {16384, 1.09}},
		NVFP4: []MoEWidthPoint{{128, 0.382}, {256, 0.626}, {512, 0.936}, {1024, 1.22}, {2048, 1.29}, {4096, 1.25}, {8192, 1.4}, {16384, 1.24}},
	},
	"gb200": {
		BF16:  []MoEWidthPoint{{128, 0.611}, {256, 0.916}, {512, 1.08}, {1024, 1.16}, {2048, 1.19}, {4096, 1.1}, {8192, 0.828}, {16384, 0.779}},
		FP8:   []MoEWidthPoint{{128, 0.597}, {256, 0.89}, {512, 1.05}, {1024, 1.18}, {2048, 1.22}, {4096, 1.18}, {8192, 1.21}, {16384, 1.1}},
		NVFP4: []MoEWidthPoint{{128, 0.379}, {256, 0.636}, {512, 0.937}, {1024, 1.25}, {2048, 1.32}, {4096, 1.24}, {8192, 1.43}, {16384, 1.26}},
	},
}

// moeWidthAt is the factor of pts at width w: linear in log2(w) between
// points, held flat beyond the first and last; 1 without points or width.
func moeWidthAt(pts []MoEWidthPoint, w float64) float64 {
	if len(pts) == 0 || !(w > 0) {
		return 1
	}
	if w <= pts[0].W {
		return pts[0].Factor
	}
	for i := 1; i < len(pts); i++ {
		if w <= pts[i].W {
			a, b := pts[i-1], pts[i]
			f := math.Log2(w/a.W) / math.Log2(b.W/a.W)
			return a.Factor*(1-f) + b.Factor*f
		}
	}
	return pts[len(pts)-1].Factor
}

// moeWidthFactor is the width factor for the fused-MoE curve c that
// prices the experts (moeCurve) at slice width w (StepModel.moeSliceWidth:
// zero unless the experts are TP-sharded over more than one GPU): the
// factors of c's dtype on this GPU, 1 where there are none (see
// MoEWidths) or with UseMoEWidth off.
func (s *StepSetup) moeWidthFactor(c *MoECurve, w float64) float64 {
	m, f := s.Eff.Kernels.MoE, moeWidths[s.Eff.Kernels.System]
	if !UseMoEWidth || c == nil || m == nil || f == nil || w <= 0 {
		return 1
	}
	switch c {
	case &m.BF16:
		return moeWidthAt(f.BF16, w)
	case &m.FP8:
		return moeWidthAt(f.FP8, w)
	case &m.NVFP4:
		return moeWidthAt(f.NVFP4, w)
	}
	return 1
}
