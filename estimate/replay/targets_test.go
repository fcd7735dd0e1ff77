package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/published"
)

// TestFiguresScoreMedianTPOTOnlyWithoutMean: a row that publishes only a
// median TPOT is scored on it, against the simulated per-request median
// (P50, never the mean); a row with both keeps its mean alone.
func TestFiguresScoreMedianTPOTOnlyWithoutMean(t *testing.T) {
	out := Outcome{TPOT: sim.Percentiles{Mean: 0.020, P50: 0.015, P99: 0.040}}
	cases := map[string]struct {
		tpot       published.Stat
		wantMetric string
		wantPred   float64
	}{
		"median only":   {published.Stat{Median: published.N(16)}, "tpot_ms.median", 15},
		"mean and both": {published.Stat{Mean: published.N(21), Median: published.N(16)}, "tpot_ms.mean", 20},
		"mean only":     {published.Stat{Mean: published.N(21)}, "tpot_ms.mean", 20},
		"neither":       {published.Stat{P99: published.N(40)}, "", 0},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var r published.Row
			r.Figures.TPOTMs = c.tpot
			var got []figure
			for _, f := range figures(r) {
				if f.regime == RegimeTPOT {
					got = append(got, f)
				}
			}
			if c.wantMetric == "" {
				if len(got) != 0 {
					t.Fatalf("scored %d TPOT figures, want none", len(got))
				}
				return
			}
			if len(got) != 1 || got[0].metric != c.wantMetric {
				t.Fatalf("TPOT figures %+v, want one %s", got, c.wantMetric)
			}
			if p := got[0].pred(out, r); p < c.wantPred-1e-9 || p > c.wantPred+1e-9 {
				t.Errorf("%s predicted %.3f ms, want %.3f", c.wantMetric, p, c.wantPred)
			}
		})
	}
}
