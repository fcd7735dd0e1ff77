package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// ep45 runs TestEP45Steps, an analysis (ep45) that prints and asserts
// nothing, skipped by default:
// go test ./estimate/replay -run TestEP45Steps -ep45 -v
var ep45 = flag.Bool("ep45", false, "print vllm-issue-23752's decode steps term by term (analysis)")

// TestEP45Steps prints the step terms of vllm-issue-23752's rows: every
// rank with one sequence (c8), one rank with two (c9), one rank idle (c7),
// every rank with two (what c9's padded experts cost under
// perf.UseDPPaddingRouted). Read in docs/calibration-analysis.md (ep45).
func TestEP45Steps(t *testing.T) {
	if !*ep45 {
		t.Skip("analysis: run with -ep45")
	}
	rows := targetableRows(t)
	var b strings.Builder
	for _, r := range rows {
		if r.Source != "vllm-issue-23752" {
			continue
		}
		o, sm, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		fmt.Fprintf(&b, "%s: sim TPOT %.2f ms; setup A2A=%v DBO=%v graphs=%v eager=%v idleSlow=%v spec=%d A2AFixed=%.1fus\n", r.ID, o.Sim.TPOT.Mean*1e3,
			sm.S.A2A, sm.S.DBO, sm.S.CUDAGraphs, sm.S.EnforceEager, sm.S.IdleRanksSlow, sm.S.SpecTokens, sm.S.A2AFixedS*1e6)
		one := perf.RankLoad{DecodeSeqs: 1, DecodeCtx: 50}
		two := perf.RankLoad{DecodeSeqs: 2, DecodeCtx: 100}
		for _, c := range []struct {
			name string
			runs []perf.RankRun
		}{
			{"8x1", []perf.RankRun{{Loads: []perf.RankLoad{one}, N: 8}}},
			{"1x2+7x1", []perf.RankRun{{Loads: []perf.RankLoad{two}, N: 1}, {Loads: []perf.RankLoad{one}, N: 7}}},
			{"7x1+idle", []perf.RankRun{{Loads: []perf.RankLoad{one}, N: 7}}},
			{"8x2", []perf.RankRun{{Loads: []perf.RankLoad{two}, N: 8}}},
		} {
			st := sm.StepRuns(c.runs)
			fmt.Fprintf(&b, "  %-9s total %.2f ms: dense %.2f experts %.2f attn %.2f a2a %.2f tp %.2f gaps %.2f (kernels %.0f) host %.2f launch %.2f overhead %.2f draft %.2f\n",
				c.name, st.TotalS*1e3, st.DenseS*1e3, st.ExpertS*1e3, st.AttentionS*1e3, st.A2AS*1e3, st.TPS*1e3, st.KernelGapsS*1e3, st.Kernels, st.HostS*1e3, st.LaunchS*1e3, st.OverheadS*1e3, st.SpecDraftS*1e3)
		}
	}
	t.Logf("\n%s", b.String())
}
