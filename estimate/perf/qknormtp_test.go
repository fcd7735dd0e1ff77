package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestQKNormAllHeadsAllReduce: MiniMax-M2.5 at TP 8 on vLLM 0.16.0 runs,
// per attention layer, forward_qk's five kernels (its all-reduce among
// them) and one more TP all-reduce, so a batch-4 decode step grows by
// those kernels' gaps plus 62 small all-reduces; the forms of v0.13.0
// (two norms, two all-reduces) and v0.23.0 (one fused kernel) follow the
// release; TP 1, SGLang, OLMo 3 (all-heads norm by all-gather) and the
// switch off add nothing.
func TestQKNormAllHeadsAllReduce(t *testing.T) {
	g := perfGPU(t, "h100-sxm")
	setup := func(m string, tp int, ver string, sglang bool) StepSetup {
		s := StepSetup{HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: tp, PP: 1, DP: 1, EP: true,
			WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, SGLang: sglang, Eff: ForGPU(DefaultEfficiency, g)}
		if ver != "" {
			rel, _, err := vllm.ResolveString(ver)
			if err != nil {
				t.Fatal(err)
			}
			s.TPAR = TPARSetup{Known: true, Release: rel, SM: 90}
		}
		if m == "olmo" {
			s.Model, s.WeightDType = hfFixture(t, "olmo-3-7b.written.json"), "bf16"
		} else {
			s.Model = perfModel(t, m)
		}
		return s
	}
	defer func(v bool) { UseQKNormAllHeadsAllReduce = v }(UseQKNormAllHeadsAllReduce)
	build := func(on bool, s StepSetup) *StepModel {
		UseQKNormAllHeadsAllReduce = on
		return NewStepModel(s)
	}
	s := setup("minimax-m2.5", 8, "0.16.0", false)
	on, off := build(true, s), build(false, s)
	layers := float64(s.Model.NumLayers)
	if d := on.kernels - off.kernels; math.Abs(d-5*layers) > 1e-9 {
		t.Errorf("MiniMax-M2.5 TP 8, 0.16.0: +%v kernels, want +%v (five per attention layer)", d, 5*layers)
	}
	pOn, _ := on.DecodeAt(4, 1536)
	pOff, _ := off.DecodeAt(4, 1536)
	gaps := 5 * layers * on.S.Eff.KernelGapS
	ar := on.qkNormTPTime(4)
	if ar <= 0 {
		t.Fatalf("MiniMax-M2.5 TP 8: no all-reduce time for the statistics")
	}
	if d := pOn.TPOTS - pOff.TPOTS; math.Abs(d-(gaps+ar)) > 0.02*(gaps+ar) {
		t.Errorf("MiniMax-M2.5 TP 8 batch 4: the step grows %.4g µs, want the %.4g µs of gaps and %.4g µs of all-reduces", d*1e6, gaps*1e6, ar*1e6)
	}
	UseQKNormAllHeadsAllReduce = true
	for _, c := range []struct {
		ver              string
		kernels, reduces float64
	}{{"0.13.0", 6, 2}, {"0.22.0", 5, 1}, {"0.23.0", 1, 1}, {"", 5, 1}} {
		got := qkNormTPCost(s.Model, ptr(setup("minimax-m2.5", 8, c.ver, false)))
		if got.kernels != c.kernels || got.reduces != c.reduces {
			t.Errorf("MiniMax-M2.5 TP 8, vLLM %q: %v kernels, %v all-reduces a layer; want %v, %v", c.ver, got.kernels, got.reduces, c.kernels, c.reduces)
		}
	}
	for _, c := range []struct {
		m      string
		tp     int
		sglang bool
	}{{"minimax-m2.5", 1, false}, {"minimax-m2.5", 8, true}, {"olmo", 4, false}} {
		s := setup(c.m, c.tp, "0.16.0", c.sglang)
		on, off := build(true, s), build(false, s)
		if on.kernels != off.kernels || on.qkNormTPTime(4) != 0 {
			t.Errorf("%s TP %d (SGLang %v): %v kernels on, %v off; want no change", c.m, c.tp, c.sglang, on.kernels, off.kernels)
		}
	}
}

func ptr(s StepSetup) *StepSetup { return &s }
