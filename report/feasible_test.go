package report

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/plan"
)

// TestFeasibleText holds the overall verdict to the evidence: yes only when
// every SLO passes, uncertain (naming the SLOs) when none fails but some
// target lies inside its band, no when one fails. The closing line said
// "feasible: yes" for three uncertain SLOs (qa41).
func TestFeasibleText(t *testing.T) {
	v := func(name, verdict string) slo.Verdict {
		return slo.Verdict{Name: name, Verdict: verdict, Band: &slo.BandRange{Low: 1, High: 2}}
	}
	cut := func(name string) slo.Verdict {
		return slo.Verdict{Name: name, Verdict: slo.VerdictUncertain, CutShort: true}
	}
	cases := []struct {
		name     string
		feasible bool
		slos     []slo.Verdict
		want     string
	}{
		{"all pass", true, []slo.Verdict{v("TPOT (mean)", slo.VerdictPass)}, "yes"},
		{"no SLO", true, nil, "yes"},
		{"one uncertain", true, []slo.Verdict{v("TPOT (mean)", slo.VerdictUncertain), v("TTFT p50", slo.VerdictPass)},
			"uncertain — no SLO fails; SLO TPOT (mean) is uncertain (the target lies inside the prediction's band)"},
		{"two uncertain", true, []slo.Verdict{v("TPOT (mean)", slo.VerdictUncertain), v("TTFT p50", slo.VerdictUncertain)},
			"uncertain — no SLO fails; SLOs TPOT (mean), TTFT p50 are uncertain (each target lies inside its prediction's band)"},
		// qa43 F2: "(each target lies inside its prediction's band)" closed a
		// report whose uncertain verdicts, all on runs cut short, had none
		{"cut short", true, []slo.Verdict{cut("throughput"), cut("TPOT (mean)")},
			"uncertain — no SLO fails; SLOs throughput, TPOT (mean) are uncertain (their simulations were cut short at the work ceiling, too few requests measured)"},
		{"banded and cut short", true, []slo.Verdict{v("TPOT (mean)", slo.VerdictUncertain), cut("TTFT p50")},
			"uncertain — no SLO fails; SLO TPOT (mean) is uncertain (the target lies inside the prediction's band); SLO TTFT p50 is uncertain (its simulation was cut short at its work ceiling, too few requests measured)"},
		{"fail beats uncertain", false, []slo.Verdict{v("TPOT (mean)", slo.VerdictFail), v("TTFT p50", slo.VerdictUncertain)},
			"no — SLO TPOT (mean) fails"},
	}
	for _, c := range cases {
		r := &estimate.Report{Feasible: c.feasible, SLO: c.slos}
		if got := feasibleText(r); got != c.want {
			t.Errorf("%s: feasibleText = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPassedTextShowsFails: the layout table ranks fewest fails first, so
// each row shows its fails beside its passes (a bound's as "≥k").
func TestPassedTextShowsFails(t *testing.T) {
	cases := []struct {
		c    estimate.LayoutCandidate
		want string
	}{
		{estimate.LayoutCandidate{SLOPassed: 2, SLOTotal: 3, SLOFailed: 1, Confirmed: true}, "2/3, 1 fail"},
		{estimate.LayoutCandidate{SLOPassed: 1, SLOTotal: 3, Confirmed: true}, "1/3"},
		{estimate.LayoutCandidate{SLOPassed: 2, SLOTotal: 3, SLOFailed: 1}, "~2/3, 1 fail"},
		{estimate.LayoutCandidate{SLOPassed: 2, SLOTotal: 3, SLOFailed: 1, Bounded: true}, "≤2/3, ≥1 fail"},
	}
	for _, c := range cases {
		if got := passedText(c.c); got != c.want {
			t.Errorf("passedText(%+v) = %q, want %q", c.c, got, c.want)
		}
	}
}

// TestCandidateFiguresUnmeasured: a plan candidate whose simulation
// measured no request shows the step model's steady decode, not its zeros
// (qa43 F2: "0 output tokens/s · TPOT 0 s").
func TestCandidateFiguresUnmeasured(t *testing.T) {
	c := plan.Candidate{Fits: true, Simulated: true, SteadyPerGPU: 1167.8, SteadyTPOTS: 0.0274, Binding: "memory_bandwidth"}
	got := candidateFigures(c)
	if strings.Contains(got, "0 output tokens/s") || strings.Contains(got, "TPOT 0 s") ||
		!strings.Contains(got, "no request measured") || !strings.Contains(got, "1167.8 output tokens/s per GPU, TPOT 27.4 ms") {
		t.Errorf("candidateFigures = %q", got)
	}
	c.OutputTokPerS, c.PerGPU, c.TPOTS = 56584, 884.1, 0.029
	if got := candidateFigures(c); !strings.Contains(got, "56,584 output tokens/s (884 per GPU) · TPOT 29 ms") {
		t.Errorf("measured: %q", got)
	}
}

// TestSimTextUnmeasured: a simulation whose warm-up never ended measured
// no throughput; the section says so rather than "0 output tokens/s".
func TestSimTextUnmeasured(t *testing.T) {
	var b strings.Builder
	p := &slo.Performance{Simulations: []slo.SimScenario{{InputTokens: 6000, OutputTokens: 30000, Sessions: 2048,
		Result: sim.Result{Truncated: true, Preemptions: 7}}}}
	writeSimText(&b, p)
	if got := b.String(); strings.Contains(got, "0 output tokens/s") || !strings.Contains(got, "throughput and queue lengths not measured") {
		t.Errorf("%s", got)
	}
}
