package slo

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// TestWorkCeilingReachesVerdicts: a scenario whose share of the work is
// far too small to measure sim.MinMeasured requests ends at the ceiling,
// flagged, with fewer requests — and its verdicts say so.
func TestWorkCeilingReachesVerdicts(t *testing.T) {
	in := perfRefInput(t, "fp8")
	sm := perf.NewStepModel(perf.SetupFromInput(&in))
	sc := simulateScenario(&in, sm, 500000, in.Workload.InputTokens, Options{Seed: 1, Replications: 4, workBudget: 100})
	if !sc.Result.Truncated || sc.Result.Requests >= 2*sim.MinMeasured {
		t.Fatalf("a 100 rank-step budget: %d requests, truncated %v", sc.Result.Requests, sc.Result.Truncated)
	}
	full := simulateScenario(&in, sm, 500000, in.Workload.InputTokens, Options{Seed: 1, Replications: 4})
	if full.Result.Truncated {
		t.Fatalf("the reference's scenario at the full budget is truncated")
	}
	p := &Performance{Simulations: []SimScenario{sc}}
	for _, n := range perfInputLengths(&in)[1:] { // the TTFT targets' lengths
		p.Simulations = append(p.Simulations, simulateScenario(&in, sm, 500000, n, Options{Seed: 1, Replications: 4, workBudget: 100}))
	}
	for _, v := range judgeSLOs(&in, sm, p, 500000, Options{NoAdvice: true}) {
		if v.Verdict == VerdictPass || !strings.Contains(v.Explanation, "work ceiling") {
			t.Errorf("%s on a truncated run: %s (%q)", v.Name, v.Verdict, v.Explanation)
		}
	}
	for _, v := range judgeSLOs(&in, sm, p, 500000, Options{NoAdvice: true, WorkShare: 0.01}) {
		if strings.Contains(v.Explanation, "work ceiling") {
			t.Errorf("%s: a ranking's verdict re-judged: %q", v.Name, v.Explanation)
		}
	}
}

// TestCutShort: a verdict on a truncated run is uncertain unless even the
// SLO's optimistic bound fails it; a latency no request measured is the
// bound; a run that was not truncated keeps its verdict.
func TestCutShort(t *testing.T) {
	in := perfRefInput(t, "fp8")
	trunc := func(n int) *SimScenario {
		return &SimScenario{OutputTokens: 1000, Result: sim.Result{Truncated: true, Requests: n}}
	}
	tpot := func(pred, target float64, verdict string) Verdict {
		return Verdict{Name: "TPOT (mean)", Unit: "s", Target: target, Predicted: pred, Verdict: verdict}
	}
	tput := Verdict{Name: "throughput", Unit: "tokens/s", Target: 100, Predicted: 800, Verdict: VerdictPass}
	tput0 := Verdict{Name: "throughput", Unit: "tokens/s", Target: 100, Verdict: VerdictFail, WouldPass: []string{"searched on 0"}}
	steadyTput := func(best, shown float64) bound {
		return bound{best: best, regime: band.Throughput, higher: true, shown: shown, shownIs: "steady decoding", binds: true}
	}
	for _, c := range []struct {
		name      string
		v         Verdict
		s         *SimScenario
		b         bound
		want      string
		predicted float64
	}{
		{"whole run keeps its verdict", tpot(0.01, 0.02, VerdictPass), &SimScenario{}, bound{best: 0.005, regime: band.TPOT}, VerdictPass, 0.01},
		{"truncated pass is uncertain", tpot(0.01, 0.02, VerdictPass), trunc(40), bound{best: 0.005, regime: band.TPOT}, VerdictUncertain, 0.01},
		{"truncated fail is uncertain", tpot(0.05, 0.02, VerdictFail), trunc(40), bound{best: 0.005, regime: band.TPOT}, VerdictUncertain, 0.05},
		{"bound fails: fail", tpot(0.01, 0.02, VerdictPass), trunc(40), bound{best: 7, regime: band.TPOT}, VerdictFail, 0.01},
		{"nothing measured: the bound", tpot(0, 0.02, VerdictFail), trunc(0), bound{best: 7, regime: band.TPOT}, VerdictFail, 7},
		{"nothing measured, bound passes", tpot(0, 0.02, VerdictFail), trunc(0), bound{best: 0.005, regime: band.TPOT}, VerdictUncertain, 0.005},
		// qa43 F2: a run that measured nothing said "predicted 0 tokens/s";
		// an open loop's throughput has no bound: not measured
		{"open loop: no throughput bound", tput0, trunc(0), bound{best: math.Inf(1), regime: band.Throughput, higher: true}, VerdictUncertain, 0},
		// a closed loop's: steady decoding of what it keeps running
		{"nothing measured: steady decode", tput0, trunc(0), steadyTput(1000, 500), VerdictUncertain, 500},
		{"nothing measured: steady decode fails", tput0, trunc(0), steadyTput(1000, 30), VerdictFail, 30},
		// a TPOT below the steady step at the load (12.4 ms beside 27.4)
		// is not what the loop runs: the steady step is stated
		{"nothing measured: steady step", tpot(0, 0.02, VerdictFail), trunc(0), bound{best: 0.005, regime: band.TPOT, shown: 0.015, shownIs: "the steady step"}, VerdictUncertain, 0.015},
		// 30 tokens/s: below the target of 100 even at the moe-ep
		// throughput band's high side (×2.22 since session 31).
		{"closed loop: bound below target", tput, trunc(10), bound{best: 30, regime: band.Throughput, higher: true}, VerdictFail, 800},
	} {
		got := cutShort(&in, c.v, c.s, c.b, 500000)
		if got.Verdict != c.want || got.Predicted != c.predicted {
			t.Errorf("%s: %s, predicted %g; want %s, %g", c.name, got.Verdict, got.Predicted, c.want, c.predicted)
		}
		if c.s.Result.Truncated != strings.Contains(got.Explanation, "work ceiling") || c.s.Result.Truncated != got.CutShort {
			t.Errorf("%s: explanation %q, cut short %v", c.name, got.Explanation, got.CutShort)
		}
		if unmeasured := c.s.Result.Truncated && c.s.Result.Requests == 0; unmeasured != (got.NotMeasured != "") {
			t.Errorf("%s: not measured %q", c.name, got.NotMeasured)
		}
		if got.CutShort && got.Band != nil {
			t.Errorf("%s: a band on a run cut short", c.name)
		}
		if c.s.Result.Requests == 0 && c.s.Result.Truncated && got.Verdict == VerdictUncertain && len(got.WouldPass) > 0 {
			t.Errorf("%s: what it would take, searched on an empty run: %q", c.name, got.WouldPass)
		}
	}
}

// TestOneTokenTPOT: requests of one output token meet any TPOT target, as
// the serving benchmark measures it (0), instead of failing on a
// prediction of 0 s.
func TestOneTokenTPOT(t *testing.T) {
	in := perfRefInput(t, "fp8")
	in.Workload.OutputTokens = 1
	in.SLO.TPOTMs = 50
	sm := perf.NewStepModel(perf.SetupFromInput(&in))
	tpot := func() Verdict {
		for _, v := range judgeSLOs(&in, sm, &Performance{}, 500000, Options{NoAdvice: true}) {
			if v.Name == "TPOT (mean)" {
				return v
			}
		}
		t.Fatal("no TPOT verdict")
		return Verdict{}
	}
	if v := tpot(); v.Verdict != VerdictPass || v.Predicted != 0 || !strings.Contains(v.Explanation, "one output token") {
		t.Fatalf("%+v", v)
	}
	in.Workload.OutputTokens = 2
	if v := tpot(); v.Verdict == VerdictPass {
		t.Fatalf("two output tokens, no simulation: %+v", v)
	}
}
