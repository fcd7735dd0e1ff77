package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestSpeculationEmitsTheAcceptanceLength: with a fixed step time, a
// decoding sequence emits on average the acceptance length per step, so
// TPOT is the step over it; the same seed gives the same run; every verify
// position takes budget and KV.
func TestSpeculationEmitsTheAcceptanceLength(t *testing.T) {
	const step, x, drafts = 0.010, 2.5, 3
	p := resolve.PerPositionAcceptance(x, drafts)
	var seqs float64
	cfg := Config{Step: func(l []perf.RankLoad) float64 { seqs = max(seqs, l[0].DecodeSeqs); return step }, DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 4096,
		InputTokens: 16, OutputTokens: 2000, Sessions: 1, Requests: 20, Warmup: 2, Seed: 7, Spec: Speculation{Drafts: drafts, Accept: p}}
	a, b := Run(cfg), Run(cfg)
	if a != b {
		t.Fatal("same seed, different runs")
	}
	if got, want := a.TPOT.Mean, step/x; math.Abs(got/want-1) > 0.03 {
		t.Errorf("TPOT %.3f ms, want ≈ step / acceptance = %.3f ms", got*1e3, want*1e3)
	}
	off := cfg
	off.Spec = Speculation{}
	if r := Run(off); math.Abs(r.TPOT.Mean/step-1) > 0.01 {
		t.Errorf("without speculation TPOT %.3f ms, want the step %.0f ms", r.TPOT.Mean*1e3, step*1e3)
	}
	// A decode takes drafts + 1 positions: with a budget of 8 positions
	// only two sequences decode per step.
	seqs = 0
	tight := cfg
	tight.Sessions, tight.MaxNumBatchedTokens, tight.InputTokens = 4, 8, 4
	Run(tight)
	if seqs != 2 {
		t.Errorf("%v sequences decoded in one step with a budget of 8 positions and 4 per sequence, want 2", seqs)
	}
}

// TestEmittedDrawsTheChain: the draws' mean is the chain model's
// 1 + p + … + p^N and never exceeds N + 1.
func TestEmittedDrawsTheChain(t *testing.T) {
	s := newSimulator(Config{Seed: 3, Spec: Speculation{Drafts: 2, Accept: 0.85}})
	var sum float64
	const n = 200000
	for range n {
		k := s.emitted()
		if k < 1 || k > 3 {
			t.Fatalf("emitted %d with 2 drafts", k)
		}
		sum += float64(k)
	}
	if got, want := sum/n, resolve.ChainAcceptance(0.85, 2); math.Abs(got-want) > 0.01 {
		t.Errorf("mean %.3f, want %.3f", got, want)
	}
	// Every draw is work the budget sees: a call emitting k tokens drew
	// min(k, drafts) times, between one and two here.
	before := s.seqWork
	s.emittedOver(64) // a short segment draws for each of its steps
	if drawn := s.seqWork - before; drawn < 64 || drawn > 64*2 {
		t.Errorf("64 verify steps counted %d draws of work, want 64-128 with 2 drafts", drawn)
	}
}
