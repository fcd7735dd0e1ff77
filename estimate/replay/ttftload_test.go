package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// ttftLoad runs TestTTFTLoadThroughput, an analysis (issue #28) that
// prints and asserts nothing, skipped by default:
// go test ./estimate/replay -run TestTTFTLoadThroughput -ttftload -v
var ttftLoad = flag.Bool("ttftload", false, "print every simulated row's TTFT, part by part and step by step (analysis)")

// TestTTFTLoadThroughput prints, for every targetable row of
// published/throughput.yaml with a published mean TTFT that the replay
// simulates, the mean TTFT's parts with the global constants — front end,
// engine queue (steps waited through × their mean duration), prefill
// (steps from the first chunk to the first token × their mean duration),
// the chunks it ran and the decodes beside each — against the published
// mean and p99, with TPOT beside it: the companion of estimate/pd's
// TestTTFTLoad on the throughput calibration's closed loops, bursts and
// Poisson runs (which the replay already runs as the clients did, from
// t=0).
func TestTTFTLoadThroughput(t *testing.T) {
	if !*ttftLoad {
		t.Skip("analysis: run with -ttftload")
	}
	var b strings.Builder
	b.WriteString("| row | split | engine | load | in/out | TTFT mean pub / pred | err | p99 pub / pred | front end | queue (steps × mean step) | prefill (steps × mean step) | chunks, decodes beside each | TPOT pub / pred |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range targetableRows(t) {
		f := r.Figures
		if !f.TTFTMs.Mean.Positive() {
			continue
		}
		o, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil || o.Sim == nil {
			continue
		}
		s := o.Sim
		in, out := lengths(r.Workload)
		ld := r.Load
		load := ld.Kind
		switch ld.Kind {
		case published.LoadClosedLoop:
			load = fmt.Sprintf("closed %s / %s", ld.Concurrency, ld.NumPrompts)
		case published.LoadBurst, published.LoadOfflineBatch:
			load = fmt.Sprintf("burst %s", ld.BurstRequests)
		case published.LoadPoisson:
			load = fmt.Sprintf("poisson %s/s × %s", ld.RequestRatePerS, ld.NumPrompts)
		}
		pr := func(sec float64) float64 { return sec * 1e3 }
		span := func(sec, steps float64) string {
			if steps <= 0 {
				return fmt.Sprintf("%.1f", pr(sec))
			}
			return fmt.Sprintf("%.1f (%.1f × %.1f)", pr(sec), steps, pr(sec)/steps)
		}
		fmt.Fprintf(&b, "| %s | %s | %s %s | %s | %d/%d | %s / %.1f | %+.0f%% | %s / %.1f | %.1f | %s | %s | %.1f, %.1f | %s / %.2f |\n",
			r.ID, r.Split, r.Engine.Name, r.Engine.Version, load, in, out, f.TTFTMs.Mean, pr(s.TTFT.Mean), 100*(pr(s.TTFT.Mean)/f.TTFTMs.Mean.V-1),
			f.TTFTMs.P99, pr(s.TTFT.P99), pr(s.TTFTParts.FrontendS), span(s.TTFTParts.QueueS, s.TTFTSteps.QueueSteps),
			span(s.TTFTParts.PrefillS, s.TTFTSteps.PrefillSteps), s.TTFTSteps.ChunkSteps, s.TTFTSteps.ChunkDecodes, f.TPOTMs.Mean, pr(s.TPOT.Mean))
	}
	t.Logf("throughput rows, TTFT part by part (ms):\n%s", b.String())
}
