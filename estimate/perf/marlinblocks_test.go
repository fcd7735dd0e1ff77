package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestMarlinBlockM: fused_marlin_moe's heuristic, by hand. Kimi-K2 under
// EP 8 holds 48 of 384 experts (w1.size(0) = 48), top-8: M = 8 tokens,
// 8·8/48 = 1.33, 1.33/8 = 0.17 < 0.9 → 8; M = 64: 10.67/8 = 1.33, /16 =
// 0.67 → 16; M = 128: 21.3/16 = 1.33, /32 = 0.67 → 32; M = 192: 32/32 =
// 1.0, /48 = 0.67 → 48; M = 256: 42.7/48 = 0.89 → 48; M = 320: 53.3/48 =
// 1.11, /64 = 0.83 → 64; M = 512: 85.3/64 = 1.33, no candidate breaks,
// the loop's last value 64. Without EP (all 384 experts on the GPU) M = 64
// gives 64·8/384 = 1.33, /8 = 0.17 → 8.
func TestMarlinBlockM(t *testing.T) {
	for _, tt := range []struct{ m, e, want float64 }{
		{8, 48, 8}, {64, 48, 16}, {128, 48, 32}, {192, 48, 48}, {256, 48, 48}, {320, 48, 64}, {512, 48, 64}, {64, 384, 8},
	} {
		if got := marlinBlockM(tt.m, 8, tt.e); got != tt.want {
			t.Errorf("M %v, E %v: block %v, hand %v", tt.m, tt.e, got, tt.want)
		}
	}
}

// TestExpectedBlocks: E[ceil(n/b)] for n ~ Poisson(λ), by hand. b = 1 is
// E[n] = λ. λ = 2, b = 2: P(n ≥ 1) + P(n ≥ 3) + P(n ≥ 5) + P(n ≥ 7) + … =
// 0.86466 + 0.32332 + 0.05265 + 0.00453 + 0.00024 = 1.24540 (pmf 0.13534,
// 0.27067, 0.27067, 0.18045, 0.09022, 0.03609, 0.01203, 0.00344, …).
// λ = 4/3, b = 16: one block whenever hit, 1 − e^(−4/3) = 0.73640 (P(n >
// 16) is below 1e-12). λ = 0 is no block; past λ = 500 the normal limit.
func TestExpectedBlocks(t *testing.T) {
	for _, tt := range []struct{ lambda, b, want float64 }{
		{3.7, 1, 3.7}, {2, 2, 1.24540}, {4.0 / 3, 16, 0.73640}, {0, 8, 0}, {800, 64, 800.0/64 + 0.5},
	} {
		if got := expectedBlocks(tt.lambda, tt.b); math.Abs(got-tt.want) > 2e-5*max(1, tt.want) {
			t.Errorf("λ %v, b %v: blocks %.5f, hand %.5f", tt.lambda, tt.b, got, tt.want)
		}
	}
}

// TestMarlinBlocksExpertTime: Kimi-K2 (384 experts of 3 × 7168 × 2048 =
// 44,040,192 parameters, top-8, 60 MoE layers) with INT4 experts on 8 ×
// H20-3e (148 TFLOPS BF16), TP1 + DP8 + EP8 through a gathering
// all-to-all, every efficiency 1, 16 tokens a rank (128 in the step). By
// hand: block 32 (TestMarlinBlockM), λ = 128·8/384 = 8/3, blocks per local
// expert 1 − e^(−8/3) = 0.930517 (a second block needs 33 tokens), rows
// 48 × 0.930517 × 32 = 1,429.27 a layer, FLOPs 2 × 1,429.27 × 44,040,192 ×
// 60 = 7.5535 TFLOP, 51.04 ms at 148 TFLOPS — above the weights' streaming
// time, so the expert term. Off, or with the experts not on Marlin, or
// with a point-to-point all-to-all (per-expert batches), the real pairs
// (128 × 8 / 8 = 128 a GPU: 0.68 TFLOP, 4.57 ms) leave the weights'
// streaming as the term, well under 51 ms.
func TestMarlinBlocksExpertTime(t *testing.T) {
	defer func(v bool) { UseMarlinBlocks = v }(UseMarlinBlocks)
	m := perfModel(t, "kimi-k2")
	hw := NewHardware(perfGPU(t, "h20-141g"), 8, 0, 2, 0, 0, 0)
	expert := func(on, marlin bool, a2a vllm.Traffic) float64 {
		UseMarlinBlocks = on
		sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 1, PP: 1, DP: 8, EP: true, WeightDType: "int4", KVDType: "bf16",
			A2A: a2a, CUDAGraphs: true, MarlinMoE: marlin, Eff: idealEff})
		var st StepTime
		sm.expertTime(128, &st)
		return st.ExpertS
	}
	const hand = 2 * 48 * (1 - 0.069483) * 32 * 44040192 * 60 / 148e12 // e^(−8/3) = 0.069483
	if got := expert(true, true, vllm.TrafficGather); math.Abs(got/hand-1) > 1e-3 {
		t.Errorf("on, Marlin, gather: expert time %.2f ms, hand %.2f ms", 1e3*got, 1e3*hand)
	}
	for _, c := range []struct {
		name       string
		on, marlin bool
		a2a        vllm.Traffic
	}{
		{"off", false, true, vllm.TrafficGather},
		{"not Marlin", true, false, vllm.TrafficGather},
		{"point-to-point", true, true, vllm.TrafficPerNode},
	} {
		if got := expert(c.on, c.marlin, c.a2a); got > hand/2 {
			t.Errorf("%s: expert time %.2f ms, want the unpadded term (under %.2f ms)", c.name, 1e3*got, 1e3*hand/2)
		}
	}
	// Never cheaper than without the switch, at any size.
	for _, tok := range []float64{1, 8, 64, 512, 8192} {
		UseMarlinBlocks = false
		sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 1, PP: 1, DP: 8, EP: true, WeightDType: "int4", KVDType: "bf16",
			A2A: vllm.TrafficGather, CUDAGraphs: true, MarlinMoE: true, Eff: DefaultEfficiency})
		var off, on StepTime
		sm.expertTime(tok, &off)
		UseMarlinBlocks = true
		sm.expertTime(tok, &on)
		if on.ExpertS < off.ExpertS {
			t.Errorf("%v tokens: on %.3g s < off %.3g s", tok, on.ExpertS, off.ExpertS)
		}
	}
}

// TestCaptureSize: vLLM's default capture sizes [1, 2, 4] + range(8, 256,
// 8) + range(256, max + 1, 16), the smallest holding n: 1 → 1, 3 → 4, 5
// → 8, 9 → 16, 255 → 256, 257 → 272; past the ceiling (513 of 512) no
// graph (0).
func TestCaptureSize(t *testing.T) {
	for _, tt := range []struct{ n, want float64 }{{1, 1}, {2, 2}, {3, 4}, {5, 8}, {8, 8}, {9, 16}, {255, 256}, {256, 256}, {257, 272}, {512, 512}, {513, 0}} {
		if got := captureSize(tt.n, 512); got != tt.want {
			t.Errorf("n %v: %v, hand %v", tt.n, got, tt.want)
		}
	}
}

// TestDPGraphPadding: the source's pinned control, one rank of eight at 9
// decodes and the others at 8, 8, 8, 8, 8, 8, 7 (64 in all). With
// UseDPGraphPadding every rank runs captured size 16, so the gathered call
// holds 8 × 16 = 128 rows: Marlin picks block 32 (TestMarlinBlockM) for
// 64 real tokens, λ = 64 · 8 / 384 = 4/3, rows 48 × (1 − e^(−4/3)) × 32 =
// 1,131.1 a layer, 2 × 1,131.1 × 44,040,192 × 60 / 148 TFLOPS = 40.39 ms at
// efficiency 1 — where 64 tokens unpadded pick block 16 (20.19 ms).
// Eager (no graphs) pads nothing.
func TestDPGraphPadding(t *testing.T) {
	defer func(a, b, c bool) { UseMarlinBlocks, UseDPGraphPadding, UseDPPaddingRouted = a, b, c }(UseMarlinBlocks, UseDPGraphPadding, UseDPPaddingRouted)
	UseMarlinBlocks = true
	UseDPPaddingRouted = false // the block choice alone (dppadrouted_test.go prices the routed rows)
	m := perfModel(t, "kimi-k2")
	hw := NewHardware(perfGPU(t, "h20-141g"), 8, 0, 2, 0, 0, 0)
	var loads []RankLoad
	for _, n := range []float64{9, 8, 8, 8, 8, 8, 8, 7} {
		loads = append(loads, RankLoad{DecodeSeqs: n, DecodeCtx: n * 64})
	}
	expert := func(pad, graphs bool) float64 {
		UseDPGraphPadding = pad
		sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 1, PP: 1, DP: 8, EP: true, WeightDType: "int4", KVDType: "bf16",
			A2A: vllm.TrafficGather, CUDAGraphs: graphs, EnforceEager: !graphs, MarlinMoE: true, Eff: idealEff})
		return sm.Step(loads).ExpertS
	}
	const e43 = 0.263597 // e^(−4/3)
	padded, unpadded := 2*48*(1-e43)*32*44040192*60/148e12, 2*48*(1-e43)*16*44040192*60/148e12
	if got := expert(true, true); math.Abs(got/padded-1) > 1e-3 {
		t.Errorf("padded: expert time %.2f ms, hand %.2f ms", 1e3*got, 1e3*padded)
	}
	if got := expert(false, true); math.Abs(got/unpadded-1) > 1e-3 {
		t.Errorf("switch off: expert time %.2f ms, hand %.2f ms", 1e3*got, 1e3*unpadded)
	}
	if got := expert(true, false); math.Abs(got/unpadded-1) > 1e-3 {
		t.Errorf("eager: expert time %.2f ms, hand %.2f ms (no padding)", 1e3*got, 1e3*unpadded)
	}
}
