package pd

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
)

// A closed loop of N sessions obeys Little's law: each session has one
// request in the system at a time, a request's time being its TTFT and
// (out − 1) × TPOT after it (the workload has no client think time), so
// rate × (TTFT + (out − 1) × TPOT) = N, within 3% (the two pools are
// separate simulations of a few thousand requests). QA finding (session
// 38): the decode pool of a loop of two ran both sessions with no time
// away (compose corrected its population only below N − 1), 1.21
// requests/s on the P2pNccl row where Little's law with the model's own
// TTFT and TPOT gives 1.06. The two QA specs of session 37 (one instance
// per pool) and the boundary example (three instances per pool, so a
// loop of one or two sessions leaves instances idle: one session on three
// decode instances is one session's rate, not three).
func TestClosedLoopLittle(t *testing.T) {
	type evalAt func(n int) Scenario
	specs := map[string]evalAt{}
	for _, c := range qa37 {
		specs[c.file] = func(n int) Scenario {
			r, _ := qa37Eval(t, c.file, func(pre, dec *input.Input) {
				pre.Workload.Concurrency, dec.Workload.Concurrency = n, n
			})
			return r.Scenarios[0]
		}
	}
	specs["boundary (3 + 3 instances)"] = func(n int) Scenario { return boundaryAt(t, fmt.Sprint(n)).Scenarios[0] }
	for name, eval := range specs {
		for _, n := range []int{1, 2, 4, 16, 128} {
			s := eval(n)
			held := s.RequestsPerS * (s.TTFT.Mean + float64(s.OutputTokens-1)*s.TPOT.Mean)
			t.Logf("%s N=%d: %.4f requests/s × (TTFT %.4f s + %d × TPOT %.5f s) = %.3f sessions (bound by %s)",
				name, n, s.RequestsPerS, s.TTFT.Mean, s.OutputTokens-1, s.TPOT.Mean, held, s.Binding)
			tol := 0.03
			if s.Binding == BindPrefill {
				// A saturated prefill pool's rate is its own closed-loop
				// simulation's (sim.RunModel), whose sessions' times away
				// are drawn exponentially around their mean: the boundary
				// example's 128 sessions hold 124.2 at seed 1 (−3.0%),
				// the sample mean of that seed's draws, not a bias of the
				// composition (TestClosedLoopLittleSeeds: −3.0% to +3.7%
				// over seeds 1–12, mean +0.6%).
				tol = 0.05
			}
			if s.Sessions != n || math.Abs(held/float64(n)-1) > tol {
				t.Errorf("%s: %d sessions, Little's law holds %.3f (%+.1f%%)", name, n, held, 100*(held/float64(n)-1))
			}
		}
	}
}

// TestClosedLoopLittleSeeds: where the boundary example's 128 sessions
// miss Little's law by 3% (TestClosedLoopLittle, seed 1). The prefill pool
// binds, so the loop's rate is the prefill simulation's (sim.RunModel, a
// closed loop of the 128 sessions, 43 on each of the 3 instances, each
// away ThinkS ≈ 3.34 s between prompts: the hand-off, the decode pool and
// the wait to notice the read). The simulator draws each time away
// exponentially (sim.Config.ThinkS); the composition states the mean. A
// run measures 1,200 prompts whose times away, ≈ 83% of a session's
// 4.0 s cycle, have a sample mean within about ±1/√1200 ≈ ±2.9% of
// ThinkS (one standard deviation), so the rate moves by about 0.83 ×
// 2.9% ≈ ±2.4% seed by seed (measured: 2.3% over the 12 seeds below).
// Measured:
//   - the composed loop over seeds 1–12 holds −3.0% (seed 1) to +3.7% of
//     its 128 sessions, mean +0.6% (no bias beyond the noise, whose
//     standard error over 12 seeds is ≈ 0.7%);
//   - a control with no queue and no composition, one session on each
//     prefill instance (its prompt never waits: TTFT constant), away the
//     same 3.34 s, misses Little's law with the nominal mean by −3.1% at
//     seed 1 and tracks the loop seed by seed (correlation 0.96): the
//     deviation is the draws' sample mean, sampled anew by every seed.
//
// It is the simulation's Monte Carlo error at these run sizes (pools.go
// simRequests, simReplications), a true effect of the method, not a
// formula to correct; halving it takes four times the prefill run.
func TestClosedLoopLittleSeeds(t *testing.T) {
	in := testinput.FromYAML(t, "boundary.yaml", strings.Replace(boundarySpec, "concurrency: 96", "concurrency: 128", 1)+"bare}\n")
	pre, dec := testinput.Pools(t, in.Resolved())
	one := pre
	one.Workload.OutputTokens = 1 // as the router sends prompts (evaluatePD)
	p := newPool(spec.RolePrefill, &one)
	const seeds, away = 12, 3.34
	var loop, ctl []float64
	for seed := uint64(1); seed <= seeds; seed++ {
		r, _ := Evaluate(&pre, &dec, false, "vllm-router", slo.Options{Seed: seed})
		s := r.Scenarios[0]
		if s.Binding != BindPrefill || s.Sessions != 128 {
			t.Fatalf("seed %d: %d sessions bound by the %s, want 128 by the prefill pool", seed, s.Sessions, s.Binding)
		}
		loop = append(loop, s.RequestsPerS*(s.TTFT.Mean+float64(s.OutputTokens-1)*s.TPOT.Mean)/128-1)
		c := simPrefill(&p, s.InputTokens, load{sessions: p.Instances, thinkS: away}, seed)
		ctl = append(ctl, c.OutputTokPerS*(c.E2E.Mean+away)/float64(p.Instances)-1)
		t.Logf("seed %d: rate %.3f requests/s, TTFT %.3f s: Little's law %+.2f%%; one session per instance %+.2f%%",
			seed, s.RequestsPerS, s.TTFT.Mean, 100*loop[len(loop)-1], 100*ctl[len(ctl)-1])
	}
	mean := func(x []float64) float64 {
		m := 0.0
		for _, v := range x {
			m += v
		}
		return m / float64(len(x))
	}
	ml, mc := mean(loop), mean(ctl)
	var sxy, sxx, syy float64
	for i := range loop {
		sxy += (loop[i] - ml) * (ctl[i] - mc)
		sxx += (loop[i] - ml) * (loop[i] - ml)
		syy += (ctl[i] - mc) * (ctl[i] - mc)
	}
	corr := sxy / math.Sqrt(sxx*syy)
	t.Logf("mean %+.2f%% (control %+.2f%%), correlation %.2f", 100*ml, 100*mc, corr)
	for i, d := range loop {
		if math.Abs(d) > 0.05 {
			t.Errorf("seed %d: Little's law %+.1f%%, beyond the ±5%% the draws' noise explains", i+1, 100*d)
		}
	}
	if math.Abs(ml) > 0.015 {
		t.Errorf("mean over %d seeds %+.2f%%: a bias of the composition, not the draws' noise (±0.7%% standard error)", seeds, 100*ml)
	}
	if corr < 0.8 {
		t.Errorf("the loop's deviation does not follow the time-away draws' (correlation %.2f)", corr)
	}
	if math.Abs(ctl[0]-loop[0]) > 0.01 || loop[0] > -0.02 {
		t.Errorf("seed 1: the loop %+.2f%%, the control %+.2f%%: the 3%% of TestClosedLoopLittle is no longer the draws'", 100*loop[0], 100*ctl[0])
	}
}

// QA finding (session 38): the throughput verdict's Little's law named two
// request times in one sentence ("128 ÷ 56.03 s, the request's time being
// about 0.714 s + 1000 × 55.9 ms = 56.62 s"). It names one, TTFT + (out −
// 1) × TPOT, and N over it is the rate it states within 1%.
func TestLittleSentenceOneTime(t *testing.T) {
	r, _ := qa37Eval(t, "testdata/qa38-glm5-fp8-pd-2x8h200.yaml", nil)
	s := r.Scenarios[0]
	if s.Binding != BindSessions {
		t.Fatalf("bound by the %s, want the sessions", s.Binding)
	}
	x := RateExplanation(&s)
	times := regexp.MustCompile(`(\d+\.\d+) s\b`).FindAllStringSubmatch(x, -1)
	var secs []float64
	for _, m := range times {
		v, _ := strconv.ParseFloat(m[1], 64)
		secs = append(secs, v)
	}
	// the request's time and its TTFT part, nothing else in seconds
	if len(secs) != 2 {
		t.Fatalf("%d figures in seconds, want the request's time and its TTFT: %s", len(secs), x)
	}
	cycle := secs[0]
	want := s.TTFT.Mean + float64(s.OutputTokens-1)*s.TPOT.Mean
	if math.Abs(cycle-want) > 0.01 || math.Abs(float64(s.Sessions)/cycle/s.RequestsPerS-1) > 0.01 {
		t.Errorf("request's time %.2f s (TTFT + (out − 1) × TPOT = %.2f s), %d ÷ it = %.3f against the rate %.3f: %s",
			cycle, want, s.Sessions, float64(s.Sessions)/cycle, s.RequestsPerS, x)
	}
	if !strings.Contains(x, fmt.Sprintf("%d more output tokens", s.OutputTokens-1)) {
		t.Errorf("the sentence does not count the output tokens after the first: %s", x)
	}
}
