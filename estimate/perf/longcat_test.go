package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

func longcatChat(t *testing.T) *catalog.Model {
	return hfFixture(t, "longcat-flash-chat.reconstructed.json")
}

// TestLongCatGEMMShapes: the per-GPU projections of LongCat-Flash-Chat at
// TP 8 (catalog/longcat.go; vLLM's FlashDecoderLayer), by hand: each of the
// 56 MLA attentions (two per decoder layer) fused q_a + kv_a N 1,536 + 512
// + 64 = 2,112 K 6,144, q_b N 8 × 192 = 1,536 K 1,536, kv_b N 8 × 256 =
// 2,048 K 512, o N 6,144 K 8 × 128 = 1,024; each of the 56 dense MLPs
// (mlps.0 and mlps.1) gate_up N 2 × 12,288 / 8 = 3,072 K 6,144, down N 6,144
// K 1,536; the 28 routers N 512 + 256 zero experts = 768 K 6,144. An MoE
// that replaced the MLP would list 28 MLPs, and a router of 512 outputs.
func TestLongCatGEMMShapes(t *testing.T) {
	defer func(was bool) { UseGEMMTables = was }(UseGEMMTables)
	UseGEMMTables = true
	h100 := perfGPU(t, "h100-sxm")
	s := StepSetup{Model: longcatChat(t), TP: 8, PP: 1, DP: 1, WeightDType: "bf16",
		HW: NewHardware(h100, 8, 0, 2, 0, 0, 0), Eff: ForGPU(DefaultEfficiency, h100)}
	want := map[[2]float64]float64{
		{2112, 6144}: 56, {1536, 1536}: 56, {2048, 512}: 56, {6144, 1024}: 56,
		{3072, 6144}: 56, {6144, 1536}: 56, {768, 6144}: 28,
	}
	seen := 0
	for _, g := range gemmShapesOf(&s) {
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
		t.Errorf("%d shapes, want %d", seen, len(want))
	}
}

// TestLongCatCensus: per sub-layer the attention's and the dense MLP's
// all-reduce (112) and the experts' own on the 28 MoE sub-layers: 140. The
// eager census: 56 sub-layers × (2 norms + MLA 12 + dense MLP 4) = 1,008,
// + 28 MoE sub-layers × (MoE 11 + the zero experts' identity kernel 1) =
// 336: 1,344 kernels; W8A8 adds a quantization per linear, 56 × (MLA 5 +
// MLP 2) + 28 × (the experts' 2) = 448: 1,792.
func TestLongCatCensus(t *testing.T) {
	m := longcatChat(t)
	if got := tpReducesPerStage(m, 1); got != 140 {
		t.Errorf("%v TP all-reduces, want 140", got)
	}
	if got := tpReducesPerStage(m, 2); got != 70 {
		t.Errorf("%v TP all-reduces per stage at PP 2, want 70", got)
	}
	if got := eagerLayers(m, "bf16") * eagerOpsRef; math.Abs(got-1344) > 1e-9 {
		t.Errorf("%v eager kernels, want 1,344", got)
	}
	if got := eagerLayers(m, "fp8") * eagerOpsRef; math.Abs(got-1792) > 1e-9 {
		t.Errorf("%v eager kernels under W8A8, want 1,792", got)
	}
	if got := attentionLayers(m); got != 56 {
		t.Errorf("%d attention layers, want 56", got)
	}
}

// TestLongCatExpertWork: vLLM's ZeroExpertRouter runs a zero pick as a
// weight-0 pair on expert 0, so one token still makes 12 pairs (FLOPs 2 ×
// 12 × 37,748,736 × 28 over the EP group), while the experts read are
// expert 0 and the expected 7.8585 real picks': at one token on TP 8 (all
// 512 experts' slices on every GPU) (1 + 511 × 7.8585 / 512) / 512 of them,
// not 12 / 512.
func TestLongCatExpertWork(t *testing.T) {
	m := longcatChat(t)
	h100 := perfGPU(t, "h100-sxm")
	s := StepSetup{Model: m, TP: 8, PP: 1, DP: 1, WeightDType: "bf16",
		HW: NewHardware(h100, 8, 0, 2, 0, 0, 0), Eff: ForGPU(DefaultEfficiency, h100)}
	sm := NewStepModel(s)
	if sm.topK != 12 || !sm.zeroRemap {
		t.Fatalf("topK %v remap %v", sm.topK, sm.zeroRemap)
	}
	flops, bytes := sm.expertWork(1)
	if want := 2 * 12.0 / 8 * 37748736 * 28; math.Abs(flops-want) > 1 {
		t.Errorf("FLOPs %.0f, want %.0f", flops, want)
	}
	k := m.ExpectedFFNExpertsPerToken()
	hit := (1 + 511*k/512) / 512
	act := 1 * 12 * sm.actPairShare * sm.actBytesPerPair
	if want := (sm.expertsRead(hit)*sm.expertBytes + act) * 28; math.Abs(bytes-want) > 1 {
		t.Errorf("bytes %.0f, want %.0f", bytes, want)
	}
	if plain := (sm.expertsRead(12.0/512)*sm.expertBytes + act) * 28; bytes >= plain {
		t.Errorf("remapped read %.0f not below top-12's %.0f", bytes, plain)
	}
}
