package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestPrefillAttnTraceA100 prices, by hand, the prefill attention of one
// Qwen3-14B step on one A100 (vLLM 0.11.0, FA2): an 8,192-token chunk
// after a 4,096-token prefix, so the chunk attends to a 12,288-token span.
//
//	causal pairs per layer = 8,192 × (4,096 + 8,193/2)     = 67.1 M
//	FLOPs = 4 × 40 heads × 128 × 40 layers × pairs        = 54.98 TFLOPs
//	table (aiconfigurator a100_sxm, 8 and 16 Ki)          = 0.56 of 312 TFLOPS
//	as measured: 54.98e12 / (0.56 × 312e12)               = 314.7 ms
//	× MeasuredCompute 0.4213 on top (before attn44)       = 746.9 ms
//
// and checks that the switch moves only the tables' curve: the H20's cited
// FA3 figure (0.73) is unscaled either way.
func TestPrefillAttnTraceA100(t *testing.T) {
	defer func(v bool) { UsePrefillAttnAsMeasured = v }(UsePrefillAttnAsMeasured)
	rel, _, err := vllm.ResolveString("0.11.0")
	if err != nil {
		t.Fatal(err)
	}
	m, g := perfModel(t, "qwen3-14b"), perfGPU(t, "a100-80g")
	if m.NumHeads != 40 || m.HeadDim != 128 || m.NumLayers != 40 || g.BF16TFLOPS != 312 {
		t.Fatalf("catalog moved: heads %d, head dim %d, layers %d, A100 %v TF", m.NumHeads, m.HeadDim, m.NumLayers, g.BF16TFLOPS)
	}
	eff := ForRelease(DefaultEfficiency, g, rel, true, nil)
	s := StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
	sm := NewStepModel(s)
	c, p := 8192.0, 4096.0
	l := RankLoad{PrefillTokens: c, PrefillPairs: c * (p + (c+1)/2), PrefillPrefix: p, PrefillSeqs: 1}
	flops := 4.0 * 40 * 128 * 40 * c * (p + (c+1)/2)
	if f := sm.attnFLOPs(l, false); math.Abs(f/flops-1) > 1e-9 {
		t.Fatalf("prefill attention FLOPs %.4g, hand %.4g", f, flops)
	}
	if span := prefillSpan(l); span != 12288 {
		t.Fatalf("span %.0f, want 12,288", span)
	}
	for _, on := range []bool{true, false} {
		UsePrefillAttnAsMeasured = on
		want := 0.56 // the table's 8 Ki and 16 Ki cells
		if !on {
			want *= DefaultEfficiency.MeasuredCompute
		}
		got := sm.S.Eff.prefillAttnEff(12288)
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("as measured %v: efficiency %.4f at 12 Ki, want %.4f", on, got, want)
		}
		ms := 1e3 * flops / (312e12 * got)
		if hand := map[bool]float64{true: 314.7, false: 746.9}[on]; math.Abs(ms-hand) > 0.1 {
			t.Errorf("as measured %v: %.1f ms, hand %.1f ms", on, ms, hand)
		}
		h20 := ForGPU(DefaultEfficiency, perfGPU(t, "h20-96g"))
		if UseH20KernelFigures {
			if got := h20.prefillAttnEff(16384); got != 0.73 {
				t.Errorf("as measured %v: H20 cited FA3 %.3f, want 0.73 unscaled", on, got)
			}
		}
	}
}
