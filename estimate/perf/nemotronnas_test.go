package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

func super49B(t *testing.T) *catalog.Model {
	return hfFixture(t, "llama-3.3-nemotron-super-49b-v1.verbatim.json")
}

// TestNemotronSuper49BGEMMShapes: the per-GPU projections of
// Llama-3.3-Nemotron-Super-49B-v1 at TP 8, by hand from its block_configs
// (catalog/nemotronnas.go): 49 attention layers of fused qkv N (8 + 2 × 1)
// × 128 = 1,280 and o_proj K 8 × 128 = 1,024; each layer's MLP of its own
// width / 8: gate_up N 2 × width / 8, down K width / 8 — 49 layers of
// 28,672 (7,168 / 3,584), 6 of 14,336, 10 of 7,168, 8 of 5,632, 6 of 2,816,
// 1 of 17,920. Uniform layers (intermediate_size for all 80) would have
// listed one MLP shape 80 times.
func TestNemotronSuper49BGEMMShapes(t *testing.T) {
	defer func(was bool) { UseGEMMTables = was }(UseGEMMTables)
	UseGEMMTables = true
	h100 := perfGPU(t, "h100-sxm")
	m := super49B(t)
	s := StepSetup{Model: m, TP: 8, PP: 1, DP: 1, WeightDType: "bf16",
		HW: NewHardware(h100, 8, 0, 2, 0, 0, 0), Eff: ForGPU(DefaultEfficiency, h100)}
	got := gemmShapesOf(&s)
	want := map[[2]float64]float64{{1280, 8192}: 49, {8192, 1024}: 49}
	for w, n := range map[float64]float64{28672: 49, 14336: 6, 7168: 10, 5632: 8, 2816: 6, 17920: 1} {
		want[[2]float64{2 * w / 8, 8192}] += n
		want[[2]float64{8192, w / 8}] += n
	}
	seen := 0
	for _, g := range got {
		if g.lmHead {
			continue
		}
		w, ok := want[[2]float64{g.n, g.k}]
		if !ok || math.Abs(g.count-w) > 1e-9 {
			t.Errorf("shape N %v K %v ×%v, want ×%v (listed %v)", g.n, g.k, g.count, w, ok)
		}
		seen++
	}
	if seen != len(want) {
		t.Errorf("%d shapes, want %d: %+v", seen, len(want), got)
	}
}

// TestNemotronSuper49BCensus: a no-op sublayer runs nothing (vLLM's
// DeciLMDecoderLayer.forward skips its norm, projection and all-reduce):
// 49 attention + 80 MLP all-reduces per forward pass (129, 64.5 per stage
// at PP 2) where a uniform 80-layer model has 160; the eager census is 49
// × (1 + 5) + 80 × (1 + 4) = 694 kernels, 63.09 reference layers of 11,
// with W8A8 adding one per linear: + 49 × 2 + 80 × 2 = 952.
func TestNemotronSuper49BCensus(t *testing.T) {
	m := super49B(t)
	if got := tpReducesPerStage(m, 1); got != 129 {
		t.Errorf("%v TP all-reduces, want 129", got)
	}
	if got := tpReducesPerStage(m, 2); got != 64.5 {
		t.Errorf("%v TP all-reduces per stage at PP 2, want 64.5", got)
	}
	if got := eagerLayers(m, "bf16") * eagerOpsRef; math.Abs(got-694) > 1e-9 {
		t.Errorf("%v eager kernels, want 694", got)
	}
	if got := eagerLayers(m, "fp8") * eagerOpsRef; math.Abs(got-952) > 1e-9 {
		t.Errorf("%v eager kernels under W8A8, want 952", got)
	}
	if got := attentionLayers(m); got != 49 {
		t.Errorf("%d attention layers, want 49", got)
	}
}
