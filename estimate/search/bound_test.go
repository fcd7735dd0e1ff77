package search

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// autoExample is an example spec with `parallelism: auto`.
func autoExample(t testing.TB, name string) input.Input {
	t.Helper()
	d, ds := spec.Load(filepath.Join("../../examples", name+".yaml"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	d.Parallelism = spec.Parallelism{Auto: true}
	spec.ApplyDefaults(d)
	r, err := resolve.FromSpec(d)
	if err != nil {
		t.Fatal(err)
	}
	return input.FromResolved(r)
}

// boundExamples cover closed loops with throughput and TTFT SLOs (the
// reference), TPOT with speculative decoding (MTP), an open-loop burst
// (R1), a dense model with TPOT (Llama 70B), and issue #23's hybrid
// (Qwen3-Next, Gated DeltaNet state per sequence), decode context
// parallelism (Kimi-K2.5 DCP 8) and NVFP4 (DeepSeek-V3.1 on B200) examples.
var boundExamples = []string{"deepseek-v3-32xh20", "deepseek-v3-fp8-mtp-2x8h200", "deepseek-r1-8xh200-burst", "llama-3.1-70b-8xa100", "qwen3-next-80b-a3b-2xh200", "kimi-k2.5-dcp8-8xh200", "deepseek-v3.1-nvfp4-4xb200"}

// TestBoundNeverBelowCheck: for every layout of the examples, the bound
// Rank prunes with ranks no lower than the figures the search's simulation
// gives (better is never true of the simulated over the bound), SLO by SLO
// count and, for a closed loop, with the very same decode tokens/s. A
// bound below the simulation would prune a layout that could have won.
func TestBoundNeverBelowCheck(t *testing.T) {
	for _, name := range boundExamples {
		t.Run(name, func(t *testing.T) {
			base := autoExample(t, name)
			closed := base.Workload.ArrivalRatePerS <= 0 && base.Workload.BurstRequests <= 0
			for _, lay := range candidateLayouts(&base) {
				e := bound(base.WithLayout(lay))
				b := e.Candidate
				e.simulate()
				s := e.Candidate
				what := fmt.Sprintf("%s: bound %d/%d %.0f tok/s, simulated %d/%d %.0f tok/s", s.Name(), b.SLOPassed, b.SLOTotal, b.DecodeTokPerS, s.SLOPassed, s.SLOTotal, s.DecodeTokPerS)
				if b.SLOTotal != s.SLOTotal || b.SLOPassed < s.SLOPassed || better(s, b) {
					t.Error(what)
				}
				if closed && b.DecodeTokPerS != s.DecodeTokPerS {
					t.Errorf("%s: a closed loop's decode figure does not depend on the simulation", what)
				}
			}
		})
	}
}

// checkOpt are `vlaunch check`'s default performance options (seed 1,
// the simulation sized by the simulator's work budget): the search
// confirms its choice with the report's options.
var checkOpt = slo.Options{Seed: 1}

// TestPruningKeepsTheChoice: Rank with its branch and bound chooses a
// layout that carries check's own figures (Confirmed: what a check of it
// with checkOpt gives), and no layout it left out could have beaten it:
// every layout whose exhaustive ranking run ranks above the chosen one's
// confirmed figures was confirmed too, and ranks below it by check's
// figures — except one whose ranking run was cut short at its work
// ceiling (it keeps its bound: entry.cutShort), which when not among the
// confirmTop best is marked Unsettled. Every simulated layout carries the
// figures of the exhaustive ranking run, or check's own when Confirmed.
func TestPruningKeepsTheChoice(t *testing.T) {
	for _, name := range []string{"deepseek-v3-32xh20", "deepseek-v3-fp8-2x8h200", "deepseek-r1-8xh200-burst"} {
		t.Run(name, func(t *testing.T) {
			base := autoExample(t, name)
			all := map[string]Candidate{}
			for _, lay := range candidateLayouts(&base) {
				e := bound(base.WithLayout(lay))
				e.simulate()
				all[e.PinYAML()] = e.Candidate
			}
			got := Rank(&base, checkOpt)
			chosen := got[0]
			if len(got) != len(all) || !chosen.Confirmed {
				t.Fatalf("Rank listed %d of %d layouts, chosen %+v", len(got), len(all), chosen)
			}
			e := bound(base.WithLayout(chosen.layout(base.Layout.Nodes, base.Layout.GPUsPerNode)))
			e.confirm(checkOpt)
			if e.Candidate != chosen {
				t.Errorf("chosen %+v, check's figures %+v", chosen, e.Candidate)
			}
			simulated, confirmed := 0, 0
			for _, c := range got {
				ranked := all[c.PinYAML()]
				if better(ranked, chosen) && !c.Confirmed && !(ranked.Bounded && c.Unsettled) {
					t.Errorf("%s: its ranking run (%d/%d, %.0f tok/s) beats the chosen %s, and it was not confirmed", c.Name(), ranked.SLOPassed, ranked.SLOTotal, ranked.DecodeTokPerS, chosen.Name())
				}
				if c != chosen && better(c, chosen) && !c.Unsettled {
					t.Errorf("%s ranks above the chosen %s: %+v", c.Name(), chosen.Name(), c)
				}
				switch {
				case c.Confirmed:
					confirmed++
				case !c.Bounded:
					simulated++
					if c != ranked {
						t.Errorf("%s: %+v, exhaustive ranking run %+v", c.Name(), c, ranked)
					}
				}
			}
			t.Logf("%s: %d of %d layouts confirmed, %d more simulated", chosen.Name(), confirmed, len(got), simulated)
		})
	}
}

// TestBudgetSpentSaysSo: when the search's budget runs out before the best
// simulated layout ranks above every bound left, the best simulated one is
// still chosen and listed first, the layouts whose bound ranks above it
// are marked Unsettled, and EST301 says the choice may not be the best.
func TestBudgetSpentSaysSo(t *testing.T) {
	base := autoExample(t, "deepseek-v3-fp8-2x8h200")
	full := Rank(&base, checkOpt)
	defer func(b int) { searchScenarioBudget = b }(searchScenarioBudget)
	searchScenarioBudget = 1 // one layout's scenarios
	_, res, info := Choose(&base, checkOpt)
	simulated, open := 0, 0
	for i, c := range res.Candidates {
		if !c.Bounded {
			simulated++
			if i != 0 {
				t.Errorf("simulated layout %s at row %d: only the chosen one is", c.Name(), i)
			}
			if !c.Confirmed {
				t.Errorf("chosen %s not confirmed", c.Name())
			}
		}
		if c.Unsettled {
			open++
			if !better(c, res.Chosen) {
				t.Errorf("%s is Unsettled but its bound ranks below the chosen %s", c.Name(), res.Chosen.Name())
			}
		}
	}
	if simulated != 1 || res.Chosen != res.Candidates[0] {
		t.Fatalf("%d layouts simulated, chosen %s", simulated, res.Chosen.Name())
	}
	fullSimulated := 0
	for _, c := range full {
		if !c.Bounded {
			fullSimulated++
		}
	}
	if fullSimulated > 1 && open == 0 {
		t.Errorf("the full search simulated %d layouts; with a budget of one, none is Unsettled", fullSimulated)
	}
	if open > 0 && !strings.Contains(info.Message, "work budget ran out") {
		t.Errorf("EST301 does not say the budget ran out: %s", info.Message)
	}
}
