package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// ttftSpread runs TestTTFTSpread, an analysis (issue #28: the simulated
// TTFT's spread against the published one) that prints and asserts
// nothing, skipped by default:
// go test ./estimate/replay -run TestTTFTSpread -ttftspread -v
var ttftSpread = flag.Bool("ttftspread", false, "print the published and simulated TTFT P99 / median of every replayed row that publishes both (analysis)")

// spreadFig is one row's TTFT shape, published and simulated.
type spreadFig struct {
	row, split, engine, load, data string
	excluded                       bool
	// den says which published centre the ratios divide by ("median", or
	// "mean" where the row gives no median); pubRatio and simRatio are the
	// P99 over it, published and simulated (the same centre).
	den                string
	pubRatio, simRatio float64
	// p99Err and cenErr are the simulated P99's and centre's signed
	// relative errors; shapeOnly is the P99's error were the centre right
	// (the published centre × the simulated ratio), centreOnly its error
	// were the shape right (the simulated centre × the published ratio).
	p99Err, cenErr, shapeOnly, centreOnly float64
	pubP99, simP99                        float64
	simP90                                float64
	// shifted is the simulated P99 / centre were the centre's gap a flat
	// latency every request misses: (simulated P99 + published centre −
	// simulated centre) / published centre.
	shifted float64
}

// TestTTFTSpread prints, for every replayed row that publishes a TTFT P99
// and a median (or mean), the published P99 / median against the
// simulated one, with the row's load kind, engine and dataset, then the
// ratios grouped by those keys.
func TestTTFTSpread(t *testing.T) {
	if !*ttftSpread {
		t.Skip("analysis: run with -ttftspread")
	}
	var figs []spreadFig
	for _, r := range targetableRows(t) {
		tt := r.Figures.TTFTMs
		if !tt.P99.Positive() || !(tt.Median.Positive() || tt.Mean.Positive()) {
			continue
		}
		o, _, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil || o.Steady || o.Sim == nil {
			continue
		}
		s := o.Sim
		f := spreadFig{row: r.ID, split: r.Split, engine: r.Engine.Name, load: spreadLoad(r), data: spreadData(r)}
		if e.versioned {
			f.engine = "vllm " + e.release.Version.String()
		}
		pubCen, simCen := tt.Median.V, 1e3*s.TTFT.P50
		f.den = "median"
		if !tt.Median.Positive() {
			pubCen, simCen, f.den = tt.Mean.V, 1e3*s.TTFT.Mean, "mean"
		}
		f.pubP99, f.simP99, f.simP90 = tt.P99.V, 1e3*s.TTFT.P99, 1e3*s.TTFT.P90
		f.pubRatio, f.simRatio = tt.P99.V/pubCen, f.simP99/simCen
		f.p99Err, f.cenErr = f.simP99/tt.P99.V-1, simCen/pubCen-1
		f.shapeOnly, f.centreOnly = f.simRatio/f.pubRatio-1, simCen/pubCen-1
		f.shifted = (f.simP99 + pubCen - simCen) / pubCen
		x := Target{Row: r.ID, Source: r.Source, Split: r.Split, Engine: r.Engine.Name, Dataset: r.Workload.Dataset, Load: r.Load.Kind,
			Class: ClassOf(r), Metric: "ttft_ms.p99", Regime: RegimeTTFTP99, Published: tt.P99.V, Predicted: f.simP99}
		_, f.excluded = Excluded(x, r.Engine.Name)
		figs = append(figs, f)
	}
	var b strings.Builder
	b.WriteString("| row | split | excl | engine | load | data | centre | pub P99/centre | sim P99/centre | sim P90/centre | sim P99/centre, centre's gap added flat | P99 err | centre err |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range figs {
		fmt.Fprintf(&b, "| %s | %s | %v | %s | %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %+.0f%% | %+.0f%% |\n", f.row, f.split, f.excluded, f.engine, f.load,
			f.data, f.den, f.pubRatio, f.simRatio, f.simP90*f.simRatio/f.simP99, f.shifted, 100*f.p99Err, 100*f.cenErr)
	}
	t.Logf("TTFT P99 over its centre, published and simulated:\n%s", b.String())

	groups := []struct {
		name string
		key  func(spreadFig) string
	}{
		{"all", func(spreadFig) string { return "all" }},
		{"load", func(f spreadFig) string { return loadOnly(f.load) }},
		{"engine", func(f spreadFig) string { return strings.Fields(f.engine)[0] }},
		{"data", func(f spreadFig) string { return f.data }},
		{"load, engine", func(f spreadFig) string { return loadOnly(f.load) + " " + strings.Fields(f.engine)[0] }},
		{"load, data", func(f spreadFig) string { return loadOnly(f.load) + " " + f.data }},
	}
	var g strings.Builder
	for _, gr := range groups {
		by, keys := groupBy(figs, gr.key)
		fmt.Fprintf(&g, "\nby %s:\n| group | rows | median pub P99/centre | median sim P99/centre | median sim/pub ratio | P99 within ±30%% | … were the centre right | … were the shape right | not excluded: P99 within / centre right / shape right | median P99 err | median centre err |\n|---|---|---|---|---|---|---|---|---|---|---|\n", gr.name)
		for _, k := range keys {
			fs := by[k]
			var pr, sr, q, pe, ce []float64
			in, inShape, inCentre := 0, 0, 0
			var kept, keptIn, keptShape, keptCentre int
			ok := func(e float64) bool { return e >= -target && e <= target }
			for _, f := range fs {
				if ok(f.shapeOnly) {
					inShape++
				}
				if ok(f.centreOnly) {
					inCentre++
				}
				if !f.excluded {
					kept++
					if ok(f.p99Err) {
						keptIn++
					}
					if ok(f.shapeOnly) {
						keptShape++
					}
					if ok(f.centreOnly) {
						keptCentre++
					}
				}
				pr = append(pr, f.pubRatio)
				sr = append(sr, f.simRatio)
				q = append(q, f.simRatio/f.pubRatio)
				pe = append(pe, f.p99Err)
				ce = append(ce, f.cenErr)
				if f.p99Err >= -target && f.p99Err <= target {
					in++
				}
			}
			fmt.Fprintf(&g, "| %s | %d | %.2f | %.2f | %.2f | %d | %d | %d | %d of %d / %d / %d | %+.0f%% | %+.0f%% |\n", k, len(fs), medianOf(pr), medianOf(sr), medianOf(q), in,
				inShape, inCentre, keptIn, kept, keptShape, keptCentre, 100*medianOf(pe), 100*medianOf(ce))
		}
	}
	t.Logf("grouped (every row, excluded ones included):%s", g.String())
}

// spreadLoad is a row's load kind: a closed loop's sessions (low: up to
// 8), a burst's size, Poisson.
func spreadLoad(r published.Row) string {
	switch r.Load.Kind {
	case published.LoadClosedLoop:
		c := r.Load.Concurrency.Int()
		if c <= 8 {
			return fmt.Sprintf("closed-low %d", c)
		}
		return fmt.Sprintf("closed-high %d", c)
	case published.LoadBurst, published.LoadOfflineBatch:
		return fmt.Sprintf("burst %d", r.Load.BurstRequests.Int())
	case published.LoadPoisson:
		return fmt.Sprintf("poisson %s/s", r.Load.RequestRatePerS)
	}
	return r.Load.Kind
}

// loadOnly drops the count from spreadLoad's label.
func loadOnly(l string) string { return strings.Fields(l)[0] }

// spreadData is a row's dataset as the replay draws its lengths: fixed,
// a uniform range, or a conversation (log-normal) spread.
func spreadData(r published.Row) string {
	sp := spread(r)
	switch {
	case sp.Log.Sigma > 0:
		return "conversation"
	case sp.Hi > sp.Lo:
		return fmt.Sprintf("range[%.2f,%.2f]", sp.Lo, sp.Hi)
	}
	return "fixed"
}
