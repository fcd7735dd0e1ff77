package perf

import (
	"math/rand/v2"
	"testing"
)

// TestSlowestRankIsTheMax: slowestRank returns the largest rankTime over
// the ranks, whatever their order — it prices the busiest first and skips
// ranks within a load already priced, which must change nothing but the
// work. Lock-step DeepSeek-V3 ranks (DP 32) with loads out of balance, as
// vLLM's DP load balancer leaves them (random decode counts and contexts,
// a prefill chunk on some), against the plain maximum over every rank.
func TestSlowestRankIsTheMax(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	hw := NewHardware(perfGPU(t, "h200"), 8, 0, 2, 0, 0, 0)
	sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 1, PP: 1, DP: 32, EP: true, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff})
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		loads := make([]RankLoad, 32)
		for i := range loads {
			n := float64(rng.IntN(12))
			loads[i] = RankLoad{DecodeSeqs: n, DecodeCtx: n * float64(500+rng.IntN(4000))}
			if rng.IntN(8) == 0 {
				c := float64(1 + rng.IntN(2048))
				loads[i].PrefillTokens, loads[i].PrefillSeqs, loads[i].PrefillPairs = c, 1, c*(c+1)/2
			}
		}
		var want float64
		for _, l := range loads {
			want = max(want, sm.rankTime(l, nil))
		}
		_, got := sm.slowestRank([]RankRun{{Loads: loads, N: 1}}, nil, float64(sm.S.PP))
		if got != want {
			t.Fatalf("trial %d: slowest rank %.9g s, max over the ranks %.9g s", trial, got, want)
		}
	}
}
