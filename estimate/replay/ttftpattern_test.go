package replay

import (
	"cmp"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// ttftPattern runs TestTTFTPattern, an analysis (issue #28: what TTFT
// misses, across regimes) that prints and asserts nothing, skipped by
// default: go test ./estimate/replay -run TestTTFTPattern -ttftpattern -v
var ttftPattern = flag.Bool("ttftpattern", false, "print every TTFT target with its engine, release, load, prompt length, async scheduling and error, and the errors grouped (analysis)")

// ttftFig is one TTFT figure of the analysis.
type ttftFig struct {
	Target
	release, load, async string
	in, conc             int
	excluded             bool
	// queueShare is the simulated mean TTFT's share spent waiting (front
	// end beyond the request's own ingest, engine queue) — how loaded the
	// engine was, as the model sees it.
	queueShare float64
	// frontS, queueS, prefillS: the simulated mean TTFT's parts (s).
	frontS, queueS, prefillS float64
	// shape: the published median and P99 against the simulated mean,
	// median and P99 (ms; the published ones "–" when not given).
	shape string
}

// TestTTFTPattern prints every targetable row's TTFT figures (mean and P99,
// both splits, excluded ones marked) with the global constants, by engine
// and release, load kind, prompt length, load and async scheduling, with
// the signed relative and absolute error; then the figures grouped by
// those keys (count, median signed error, median absolute difference,
// share under-predicted).
func TestTTFTPattern(t *testing.T) {
	if !*ttftPattern {
		t.Skip("analysis: run with -ttftpattern")
	}
	var figs []ttftFig
	for _, r := range targetableRows(t) {
		o, _, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil || o.Steady || o.Sim == nil {
			continue
		}
		in, outTok := lengths(r.Workload)
		for _, f := range figures(r) {
			if f.regime != RegimeTTFTMean && f.regime != RegimeTTFTP99 {
				continue
			}
			x := Target{Row: r.ID, Source: r.Source, Split: r.Split, Engine: r.Engine.Name, Dataset: r.Workload.Dataset, Load: r.Load.Kind,
				Class: ClassOf(r), Metric: f.metric, Regime: f.regime, Unit: f.unit, Published: f.n.V, Predicted: f.pred(o, r),
				TTFTAfterReasoning: ttftAfterReasoning(r), PromptsSeenBefore: r.Load.PromptsSeenBefore.V, OutputTokens: outTok}
			_, ex := Excluded(x, r.Engine.Name)
			rel := r.Engine.Name + " " + firstVersion(r.Engine.Version)
			if e.versioned {
				rel = "vllm " + e.release.Version.String()
			}
			conc := 0
			load := r.Load.Kind
			switch r.Load.Kind {
			case published.LoadClosedLoop:
				conc = r.Load.Concurrency.Int()
				load = fmt.Sprintf("closed %d", conc)
			case published.LoadBurst, published.LoadOfflineBatch:
				conc = r.Load.BurstRequests.Int()
				load = fmt.Sprintf("burst %d", conc)
			case published.LoadPoisson:
				load = fmt.Sprintf("poisson %s/s", r.Load.RequestRatePerS)
			}
			s := o.Sim
			wait := s.TTFTParts.FrontendS - s.TTFTParts.PromptS + s.TTFTParts.QueueS
			share := 0.0
			if s.TTFT.Mean > 0 {
				share = wait / s.TTFT.Mean
			}
			async := "sync"
			if e.scheduleAhead {
				async = "async"
			}
			figs = append(figs, ttftFig{Target: x, release: rel, load: load, async: async, in: in, conc: conc, excluded: ex, queueShare: share,
				frontS: s.TTFTParts.FrontendS, queueS: s.TTFTParts.QueueS, prefillS: s.TTFTParts.PrefillS,
				shape: fmt.Sprintf("%s/%s vs %.1f/%.1f/%.1f", pubOrDash(r.Figures.TTFTMs.Median), pubOrDash(r.Figures.TTFTMs.P99), 1e3*s.TTFT.Mean, 1e3*s.TTFT.P50, 1e3*s.TTFT.P99)})
		}
	}
	var b strings.Builder
	b.WriteString("| row | split | excl | engine release | async | load | in | metric | pub | pred | err | pred−pub ms | wait share | front/queue/prefill ms | pub median/P99 vs pred mean/median/P99 |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range figs {
		fmt.Fprintf(&b, "| %s | %s | %v | %s | %s | %s | %d | %s | %.1f | %.1f | %+.0f%% | %+.1f | %.2f | %.1f/%.1f/%.1f | %s |\n",
			f.Row, f.Split, f.excluded, f.release, f.async, f.load, f.in, f.Metric, f.Published, f.Predicted, 100*(f.Predicted/f.Published-1),
			f.Predicted-f.Published, f.queueShare, 1e3*f.frontS, 1e3*f.queueS, 1e3*f.prefillS, f.shape)
	}
	t.Logf("TTFT figures (global constants):\n%s", b.String())

	kept := slices.DeleteFunc(slices.Clone(figs), func(f ttftFig) bool { return f.excluded })
	promptBin := func(in int) string {
		switch {
		case in <= 512:
			return "≤512"
		case in <= 2048:
			return "≤2K"
		case in <= 8192:
			return "≤8K"
		}
		return ">8K"
	}
	loadBin := func(f ttftFig) string {
		switch f.Load {
		case published.LoadClosedLoop:
			switch {
			case f.conc <= 2:
				return "closed ≤2"
			case f.conc <= 8:
				return "closed 3–8"
			case f.conc <= 32:
				return "closed 9–32"
			}
			return "closed >32"
		case published.LoadBurst, published.LoadOfflineBatch:
			if f.conc <= 8 {
				return "burst ≤8"
			}
			return "burst >8"
		}
		return f.Load
	}
	waitBin := func(f ttftFig) string {
		switch {
		case f.queueShare < 0.1:
			return "wait <10%"
		case f.queueShare < 0.5:
			return "wait 10–50%"
		}
		return "wait ≥50%"
	}
	major := func(rel string) string { // "vllm 0.11.0" → "vllm 0.11"
		fs := strings.Fields(rel)
		if len(fs) < 2 {
			return rel
		}
		v := strings.SplitN(fs[1], ".", 3)
		if len(v) >= 2 {
			return fs[0] + " " + v[0] + "." + v[1]
		}
		return rel
	}
	groups := []struct {
		name string
		key  func(ttftFig) string
	}{
		{"engine release", func(f ttftFig) string { return major(f.release) }},
		{"engine, async", func(f ttftFig) string { return f.Engine + " " + f.async }},
		{"load", loadBin},
		{"prompt", func(f ttftFig) string { return promptBin(f.in) }},
		{"model's wait share", waitBin},
		{"engine, load, prompt", func(f ttftFig) string { return f.Engine + " " + loadBin(f) + " " + promptBin(f.in) }},
		{"engine, wait share", func(f ttftFig) string { return f.Engine + " " + waitBin(f) }},
		{"metric, engine, wait", func(f ttftFig) string { return f.Metric + " " + f.Engine + " " + waitBin(f) }},
		{"source", func(f ttftFig) string { return f.Source }},
	}
	var g strings.Builder
	for _, gr := range groups {
		by, keys := groupBy(kept, gr.key)
		fmt.Fprintf(&g, "\nby %s:\n| group | n | within ±30%% | median err | median pred−pub ms | under-predicted |\n|---|---|---|---|---|---|\n", gr.name)
		for _, k := range keys {
			fs := by[k]
			var errs, diffs []float64
			in, under := 0, 0
			for _, f := range fs {
				errs = append(errs, f.Predicted/f.Published-1)
				diffs = append(diffs, f.Predicted-f.Published)
				if within(f.Target) {
					in++
				}
				if f.Predicted < f.Published {
					under++
				}
			}
			fmt.Fprintf(&g, "| %s | %d | %d | %+.0f%% | %+.1f | %d |\n", k, len(fs), in, 100*medianOf(errs), medianOf(diffs), under)
		}
	}
	t.Logf("TTFT figures not excluded, grouped:%s", g.String())
}

// pubOrDash prints a published number, or "–" when it is not given.
func pubOrDash(n published.Num) string {
	if !n.Positive() {
		return "–"
	}
	return fmt.Sprintf("%.1f", n.V)
}

// medianOf is the median of xs (0 for none).
func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.SortFunc(s, func(a, b float64) int { return cmp.Compare(a, b) })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// groupBy groups xs by key, with the keys in order.
func groupBy[T any](xs []T, key func(T) string) (map[string][]T, []string) {
	by := map[string][]T{}
	for _, x := range xs {
		by[key(x)] = append(by[key(x)], x)
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return by, keys
}
