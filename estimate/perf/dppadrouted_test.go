package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestDPPaddingRouted: DeepSeek-R1 on 8 B200s, DP 8 + EP with DeepEP's
// low-latency kernels, vllm-issue23752's c9 step — one rank at 2 decodes,
// seven at 1. With UseDPPaddingRouted every busy rank is padded to 2 and
// the padded rows reach experts, so the experts cost what 8 ranks at 2
// cost; off, less. An idle rank's dummy batch adds nothing (7 busy ranks
// at 1 stay 7 tokens), nor does a step with a prompt chunk or one run
// eagerly.
func TestDPPaddingRouted(t *testing.T) {
	defer func(a bool) { UseDPPaddingRouted = a }(UseDPPaddingRouted)
	m := perfModel(t, "deepseek-r1")
	hw := NewHardware(perfGPU(t, "b200"), 8, 0, 2, 0, 0, 0)
	model := func(graphs bool) *StepModel {
		return NewStepModel(StepSetup{Model: m, HW: hw, TP: 1, PP: 1, DP: 8, EP: true, WeightDType: "fp8", KVDType: "bf16",
			A2A: vllm.TrafficPerExpert, CUDAGraphs: graphs, EnforceEager: !graphs, Eff: idealEff})
	}
	one, two := RankLoad{DecodeSeqs: 1, DecodeCtx: 50}, RankLoad{DecodeSeqs: 2, DecodeCtx: 100}
	c9 := []RankRun{{Loads: []RankLoad{two}, N: 1}, {Loads: []RankLoad{one}, N: 7}}
	idle := []RankRun{{Loads: []RankLoad{one}, N: 7}}
	prompt := []RankRun{{Loads: []RankLoad{{PrefillTokens: 2, PrefillPairs: 3, PrefillSeqs: 1, PrefillFinal: 1}}, N: 1}, {Loads: []RankLoad{one}, N: 7}}
	expert := func(on, graphs bool, runs []RankRun) float64 {
		UseDPPaddingRouted = on
		return model(graphs).StepRuns(runs).ExpertS
	}
	uniform := expert(false, true, []RankRun{{Loads: []RankLoad{two}, N: 8}})
	if got := expert(true, true, c9); math.Abs(got/uniform-1) > 1e-9 {
		t.Errorf("c9 padded: experts %.3f ms, want 8 ranks at 2's %.3f ms", 1e3*got, 1e3*uniform)
	}
	if off := expert(false, true, c9); off >= uniform*0.9 {
		t.Errorf("c9 unpadded: experts %.3f ms, want well below 8 ranks at 2's %.3f ms", 1e3*off, 1e3*uniform)
	}
	for _, c := range []struct {
		name   string
		graphs bool
		runs   []RankRun
	}{{"idle rank", true, idle}, {"prompt chunk", true, prompt}, {"eager", false, c9}} {
		if on, off := expert(true, c.graphs, c.runs), expert(false, c.graphs, c.runs); on != off {
			t.Errorf("%s: experts %.3f ms with the switch, %.3f ms without; want no change", c.name, 1e3*on, 1e3*off)
		}
	}
}
