package perf

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// moeWidthAt reads the points exactly, interpolates linearly in log2 of the
// width between them (256 is halfway from 128 to 512) and holds the end
// values beyond; no points or no width is factor 1.
func TestMoEWidthAt(t *testing.T) {
	pts := []MoEWidthPoint{{128, 0.4}, {512, 1.0}, {2048, 1.2}}
	for _, tc := range []struct{ w, want float64 }{
		{128, 0.4}, {512, 1.0}, {2048, 1.2}, // points
		{256, 0.7}, {1024, 1.1}, // halfway in log2
		{192, 0.4 + 0.6*math.Log2(1.5)/2}, // DeepSeek-style 1536 / 8
		{64, 0.4}, {1, 0.4}, {16384, 1.2}, // held flat outside
		{0, 1}, {-5, 1}, {math.NaN(), 1}, // no width
	} {
		if got := moeWidthAt(pts, tc.w); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("moeWidthAt(%g) = %.6g, want %.6g", tc.w, got, tc.want)
		}
	}
	if got := moeWidthAt(nil, 256); got != 1 {
		t.Errorf("no points: %g, want 1", got)
	}
}

// The width factor multiplies the measured curve's rate only where the
// experts are TP-sharded over more than one GPU and a curve of a dtype
// with factors prices them. Hand-derived: DeepSeek-V3 (moe_intermediate_size
// 2,048) FP8 at TP 8 on H200 runs 256-wide slices, the H200 FP8 factor's
// point ×0.655; Qwen3-30B-A3B (768) BF16 at TP 4 on H100, 192 wide, between
// 128 (×0.655) and 256 (×0.863): 0.655 + log2(1.5)·0.208 ≈ 0.777; TP 2 ×
// DP 2 without EP shards over 4 GPUs alike. EP'd experts, one GPU, H20
// (no tables: ExpertGEMM), gpt-oss's MXFP4 curve and DeepEP keep their
// time (factor 1).
func TestExpertTimeMoEWidthFactor(t *testing.T) {
	defer func(was bool) { UseMoEWidth = was }(UseMoEWidth)
	UseMoEWidth = true
	setup := func(model, gpu, dtype string, tp, dp int, ep bool) *StepModel {
		g := perfGPU(t, gpu)
		s := StepSetup{Model: perfModel(t, model), HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: tp, PP: 1, DP: dp, EP: ep,
			WeightDType: dtype, KVDType: "bf16", CUDAGraphs: true, Eff: ForGPU(DefaultEfficiency, g)}
		return NewStepModel(s)
	}
	const tokens = 16384
	// unfactored is the experts' compute time as the curve alone prices it.
	unfactored := func(sm *StepModel) float64 {
		flops, _ := sm.expertWork(tokens)
		c := sm.S.moeCurve()
		if c == nil {
			return flops / (sm.S.gemmFLOPS() * sm.S.expertGEMMEff())
		}
		return flops / sm.S.moeCurveFLOPS(c, max(tokens*sm.topK/sm.experts, sm.S.moeRidge()))
	}
	computeS := func(sm *StepModel) float64 {
		var st StepTime
		sm.expertTime(tokens, &st)
		return st.ComputeS
	}
	qwenFactor := 0.655 + math.Log2(1.5)*(0.863-0.655)
	for _, tc := range []struct {
		name              string
		model, gpu, dtype string
		tp, dp            int
		ep                bool
		width, factor     float64
	}{
		{"DeepSeek-V3 FP8 TP8 H200", "deepseek-v3", "h200", "fp8", 8, 1, false, 256, 0.655},
		{"Qwen3-30B BF16 TP4 H100", "qwen3-30b-a3b", "h100-sxm", "bf16", 4, 1, false, 192, qwenFactor},
		{"Qwen3-30B BF16 TP2 DP2 H100", "qwen3-30b-a3b", "h100-sxm", "bf16", 2, 2, false, 192, qwenFactor},
		{"DeepSeek-V3 FP8 TP8 B200", "deepseek-v3", "b200", "fp8", 8, 1, false, 256, 0.897},
		{"DeepSeek-V3 FP8 DP8 EP H200", "deepseek-v3", "h200", "fp8", 1, 8, true, 0, 1},
		{"Qwen3-30B BF16 TP1 H100", "qwen3-30b-a3b", "h100-sxm", "bf16", 1, 1, false, 0, 1},
		{"DeepSeek-V3 FP8 TP8 H20", "deepseek-v3", "h20", "fp8", 8, 1, false, 256, 1},
	} {
		sm := setup(tc.model, tc.gpu, tc.dtype, tc.tp, tc.dp, tc.ep)
		if sm.moeSliceWidth != tc.width {
			t.Errorf("%s: slice width %g, want %g", tc.name, sm.moeSliceWidth, tc.width)
		}
		if got, want := computeS(sm), unfactored(sm)/tc.factor; !perfNear(got, want, 1e-3) {
			t.Errorf("%s: experts' compute %.5g s, want %.5g s (factor %.4g)", tc.name, got, want, tc.factor)
		}
	}
	// DeepEP's DeepGEMM: no curve, no factor.
	deepep := setup("deepseek-v3", "h200", "fp8", 1, 8, true)
	deepep.S.A2A = vllm.TrafficPerExpert
	if f := deepep.S.moeWidthFactor(deepep.S.moeCurve(), 256); f != 1 {
		t.Errorf("DeepEP: factor %g, want 1", f)
	}
	// gpt-oss's MXFP4 curve has no factors.
	g := perfGPU(t, "h200")
	rel, _, err := vllm.ResolveString("0.24.0")
	if err != nil {
		t.Fatal(err)
	}
	gs := StepSetup{Model: perfModel(t, "gpt-oss-120b"), HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 4, PP: 1, DP: 1,
		WeightDType: "mxfp4", KVDType: "bf16", CUDAGraphs: true, Eff: ForRelease(DefaultEfficiency, g, rel, true, nil)}
	gsm := NewStepModel(gs)
	if c := gsm.S.moeCurve(); c == nil || gsm.moeSliceWidth != 720 || gsm.S.moeWidthFactor(c, gsm.moeSliceWidth) != 1 {
		t.Errorf("gpt-oss MXFP4 TP4 on H200 vLLM 0.24: curve %v, width %g; want the MXFP4 curve at factor 1", c != nil, gsm.moeSliceWidth)
	}
	// Switched off, DeepSeek-V3's 256-wide slices run at the curve's rate.
	UseMoEWidth = false
	if sm := setup("deepseek-v3", "h200", "fp8", 8, 1, false); !perfNear(computeS(sm), unfactored(sm), 1e-9) {
		t.Errorf("UseMoEWidth off: experts' compute %.5g s, want the curve's %.5g s", computeS(sm), unfactored(sm))
	}
}

// moeWidthFile is tools/aicdata/moe_width.json, the output the factors of
// moewidth.go are copied from.
type moeWidthFile []struct {
	System string `json:"system"`
	Dtype  string `json:"dtype"`
	Points []struct {
		W      float64 `json:"w"`
		Factor float64 `json:"factor"`
	} `json:"points"`
}

// Every factor table of moewidth.go is the one tools/aicdata derived, and
// every derived BF16, fp8_block and NVFP4 table of a system with curves is
// in moewidth.go (copied by hand).
func TestMoEWidthsAreTheDerivedFactors(t *testing.T) {
	data, err := os.ReadFile("../../tools/aicdata/moe_width.json")
	if err != nil {
		t.Fatal(err)
	}
	var f moeWidthFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f {
		ws := moeWidths[d.System]
		var got []MoEWidthPoint
		switch {
		case moeCurves[d.System] == nil:
			continue
		case ws == nil:
			t.Errorf("%s: derived factors, none in moewidth.go", d.System)
			continue
		case d.Dtype == "bfloat16":
			got = ws.BF16
		case d.Dtype == "fp8_block":
			got = ws.FP8
		case d.Dtype == "nvfp4":
			got = ws.NVFP4
		default:
			continue
		}
		if len(got) != len(d.Points) {
			t.Errorf("%s %s: %d points, derived %d", d.System, d.Dtype, len(got), len(d.Points))
			continue
		}
		for i, p := range d.Points {
			if got[i].W != p.W || math.Abs(got[i].Factor-p.Factor) > 0.005*p.Factor {
				t.Errorf("%s %s point %d: table {%g, %g}, derived {%g, %g}", d.System, d.Dtype, i, got[i].W, got[i].Factor, p.W, p.Factor)
			}
		}
		n++
	}
	if n != 13 {
		t.Errorf("%d factor tables checked, want 13 (BF16 and FP8 on 5 GPUs, NVFP4 on 3)", n)
	}
	for sys := range moeWidths {
		if moeCurves[sys] == nil {
			t.Errorf("factors for %s, which has no curves", sys)
		}
	}
}
