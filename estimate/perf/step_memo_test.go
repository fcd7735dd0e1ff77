package perf

import (
	"math/rand/v2"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestStepMemoRecallsEarlierCounts: a memo over steps whose counts go
// back and forth between a few values (as under Poisson arrivals) gives
// what StepRuns gives at every step, term by term — for one DP rank
// (soleLoad's path, whose load is slowestRank's), with PP 2, and for lock-step DP ranks — and finds
// most steps' counts among those it has seen.
func TestStepMemoRecallsEarlierCounts(t *testing.T) {
	m, err := catalog.LookupModel("deepseek-v3")
	g, gerr := catalog.LookupGPU("h20-96g")
	if err != nil || gerr != nil {
		t.Fatal(err, gerr)
	}
	for _, lay := range []struct{ tp, pp, dp int }{{8, 1, 1}, {8, 2, 1}, {1, 1, 8}} {
		setup := StepSetup{Model: m, HW: NewHardware(g, 8, 450, 2, 25, 1, 10), TP: lay.tp, PP: lay.pp, DP: lay.dp, EP: lay.dp > 1,
			WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficPerExpert, CUDAGraphs: true, Eff: DefaultEfficiency}
		sm := NewStepModel(setup)
		rng := rand.New(rand.NewPCG(7, 8))
		loads := make([]RankLoad, lay.dp)
		var memo StepMemo
		changes := 0
		for step := 0; step < 400; step++ {
			if step%4 == 0 {
				changes++
				for i := range loads {
					d, p := float64(10+rng.IntN(3)), float64(rng.IntN(2)*512)
					loads[i].DecodeSeqs, loads[i].PrefillTokens, loads[i].PrefillPairs = d, p, p*p/2
					loads[i].PrefillSeqs = min(p, 1)
				}
			}
			for i := range loads { // contexts grow
				loads[i].DecodeCtx += 900 + loads[i].DecodeSeqs
				loads[i].PrefillPrefix += loads[i].PrefillTokens
			}
			runs := []RankRun{{Loads: loads, N: 1}}
			if sole, ok := soleLoad(runs, float64(lay.pp)); ok != (lay.dp == 1) {
				t.Fatalf("DP %d: soleLoad found one load: %v", lay.dp, ok)
			} else if slow, _ := sm.slowestRank(runs, nil, float64(lay.pp)); ok && sole != slow {
				t.Fatalf("TP %d PP %d step %d: soleLoad %+v, slowestRank %+v", lay.tp, lay.pp, step, sole, slow)
			}
			if got, want := sm.StepRunsMemo(runs, &memo), sm.StepRuns(runs); got != want {
				t.Fatalf("TP %d PP %d DP %d step %d:\n memo %+v\nfresh %+v", lay.tp, lay.pp, lay.dp, step, got, want)
			}
		}
		if lay.dp == 1 {
			// 6 possible count sets: the table must hold them all after
			// the first visits (a table that never hits would still
			// give StepRuns' figures, slowly)
			filled := 0
			for _, e := range memo.seen {
				if e.key != nil {
					filled++
				}
			}
			if filled > 6 || filled < 2 {
				t.Fatalf("TP %d PP %d: %d table entries for at most 6 count sets over %d changes", lay.tp, lay.pp, filled, changes)
			}
		}
	}
}

// TestGEMMSplitCacheSpreadsTokenCounts: whole token counts land in many
// slots (their float64 bits are zero below bit 40, and the hash once took
// bits that every count shared: one slot for all).
func TestGEMMSplitCacheSpreadsTokenCounts(t *testing.T) {
	used := map[uint64]bool{}
	for tok := 1; tok <= 64; tok++ {
		used[gemmSplitSlotOf(float64(tok), float64(tok), nil)] = true
	}
	if len(used) < 32 {
		t.Fatalf("64 token counts share %d of %d slots", len(used), gemmSplitSlots)
	}
}
