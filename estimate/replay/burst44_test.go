package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/published"
)

var shareGPTBursts = flag.Bool("sharegptbursts", false, "print every ShareGPT burst row's TTFT and TPOT (mean, median, P99) under variants of the length spread and front end (analysis)")

// TestShareGPTBursts prints, for every ShareGPT burst row, the simulated
// TTFT, TPOT and throughput beside the published ones under variants.
func TestShareGPTBursts(t *testing.T) {
	if !*shareGPTBursts {
		t.Skip("analysis: run with -sharegptbursts")
	}
	type variant struct {
		name   string
		rounds bool
		sigma  float64
	}
	vs := []variant{{"main", false, sim.ConversationSigma}, {"sigma1.0", false, 1.0}, {"rounds", true, sim.ConversationSigma}, {"rounds+sigma1.0", true, 1.0}}
	var b strings.Builder
	defer func(r bool, sp sim.Spread) { perf.UseIngestRounds, sim.ConversationSpread = r, sp }(perf.UseIngestRounds, sim.ConversationSpread)
	for _, r := range targetableRows(t) {
		if r.Workload.Dataset != "sharegpt" || r.Load.Kind != published.LoadBurst {
			continue
		}
		f := r.Figures
		fmt.Fprintf(&b, "%s (%s %s): published TTFT %.1f/%.1f/%.1f s TPOT %.0f/%.0f/%.0f ms ITL %.0f/%.0f/%.0f out %.0f tok/s\n", r.ID, r.Engine.Name, r.Engine.Version,
			f.TTFTMs.Mean.V/1e3, f.TTFTMs.Median.V/1e3, f.TTFTMs.P99.V/1e3, f.TPOTMs.Mean.V, f.TPOTMs.Median.V, f.TPOTMs.P99.V,
			f.ITLMs.Mean.V, f.ITLMs.Median.V, f.ITLMs.P99.V, f.OutputTokPerS.V)
		for _, v := range vs {
			perf.UseIngestRounds = v.rounds
			sim.ConversationSpread.Log.Sigma = v.sigma
			o, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil || o.Sim == nil {
				fmt.Fprintf(&b, "  %s: not simulated (%v)\n", v.name, err)
				continue
			}
			s := o.Sim
			fmt.Fprintf(&b, "  %-16s TTFT %.1f/%.1f/%.1f s TPOT %.0f/%.0f/%.0f ms out %.0f tok/s (%.1f s) running %.0f waiting %.0f preempt %d\n", v.name,
				s.TTFT.Mean, s.TTFT.P50, s.TTFT.P99, 1e3*s.TPOT.Mean, 1e3*s.TPOT.P50, 1e3*s.TPOT.P99, s.OutputTokPerS, s.SimulatedS, s.MeanRunning, s.MeanWaiting, s.Preemptions)
		}
	}
	t.Log(b.String())
}
