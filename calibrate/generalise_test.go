package calibrate

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/bench"
	globalfit "github.com/vlaunch/vlaunch/estimate/replay"
	"github.com/vlaunch/vlaunch/published"
)

// TestPublishedComparison: the published figures a fit was not given are
// compared by their |log error| under the global and the fitted
// constants; every figure worse by more than the tolerance is named, the
// medians are those of the paired figures, and the warning fires when the
// median grew — not when one figure did while the median held, nor for a
// change under the tolerance.
func TestPublishedComparison(t *testing.T) {
	// fig is a published figure of 100 predicted at before and after.
	type fig struct {
		row           string
		before, after float64
	}
	tests := []struct {
		name                string
		figs                []fig
		unpaired            int // figures of before missing from after (dropped)
		wantWorse           []string
		wantImproved        int
		medBefore, medAfter float64 // percent
		wantWarning         bool
	}{
		{"every figure better", []fig{{"a", 130, 110}, {"b", 80, 95}, {"c", 120, 101}}, 0, nil, 3, 25, 5.26, false},
		{"the median grew", []fig{{"a", 105, 130}, {"b", 98, 80}, {"c", 110, 109}}, 0, []string{"a", "b"}, 0, 5, 25, true},
		{"one figure worse, the median held", []fig{{"a", 110, 200}, {"b", 110, 110}, {"c", 110, 110}}, 0, []string{"a"}, 0, 10, 10, false},
		{"changes under the tolerance", []fig{{"a", 110, 110.5}, {"b", 120, 120.9}, {"c", 90, 89.6}}, 0, nil, 0, 11.1, 11.6, false},
		{"crossing the measurement, as far off", []fig{{"a", 125, 80}, {"b", 80, 125}, {"c", 100, 100}}, 0, nil, 0, 25, 25, false},
		{"a stalled replay is worse, and a number", []fig{{"a", 110, math.NaN()}, {"b", 110, 0}, {"c", 110, 110}}, 0, []string{"a", "b"}, 0, 10, 999900, true},
		{"an unpaired figure is not compared", []fig{{"a", 110, 105}}, 1, nil, 1, 10, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after []globalfit.Target
			for _, f := range tt.figs {
				before = append(before, globalfit.Target{Row: f.row, Metric: "tpot_ms.mean", Published: 100, Predicted: f.before})
				after = append(after, globalfit.Target{Row: f.row, Metric: "tpot_ms.mean", Published: 100, Predicted: f.after})
			}
			for i := range tt.unpaired {
				before = append(before, globalfit.Target{Row: "gone", Metric: string(rune('a' + i)), Published: 100, Predicted: 300})
			}
			pc := &PublishedCheck{GPU: "h200", Rows: len(tt.figs)}
			pc.compare(before, after, nil, nil)
			pc.setWarning(2, math.Log(1.5), math.Log(1.1))
			var got []string
			for _, w := range pc.Worsened {
				got = append(got, w.Row)
			}
			if strings.Join(got, "|") != strings.Join(tt.wantWorse, "|") || pc.Improved != tt.wantImproved || pc.Figures != len(tt.figs) {
				t.Errorf("worse %q, improved %d, figures %d; want %q, %d, %d", got, pc.Improved, pc.Figures, tt.wantWorse, tt.wantImproved, len(tt.figs))
			}
			if !closePct(pc.MedianBeforePct, tt.medBefore) || !closePct(pc.MedianAfterPct, tt.medAfter) {
				t.Errorf("median %.2f%% → %.2f%%, want %.2f%% → %.2f%%", pc.MedianBeforePct, pc.MedianAfterPct, tt.medBefore, tt.medAfter)
			}
			if pc.Worse() != tt.wantWarning || (pc.Warning != "") != tt.wantWarning {
				t.Errorf("Worse() %v, warning %q; want a warning: %v", pc.Worse(), pc.Warning, tt.wantWarning)
			}
			var text bytes.Buffer
			pc.writeText(&text)
			if tt.wantWarning && !strings.Contains(text.String(), "Warning: the fit improves your 2 results (worst error 50.0% → 10.0%) but worsens") {
				t.Errorf("the text report lacks the warning:\n%s", text.String())
			}
			if !tt.wantWarning && strings.Contains(text.String(), "Warning") {
				t.Errorf("a warning with the median held:\n%s", text.String())
			}
			for _, r := range tt.wantWorse {
				if !strings.Contains(text.String(), "    "+r+" tpot_ms.mean ") {
					t.Errorf("the text report does not name %s:\n%s", r, text.String())
				}
			}
		})
	}
}

// closePct compares percentages to 0.05 points.
func closePct(got, want float64) bool { return math.Abs(got-want) < 0.05 }

// TestPublishedNone: nothing compared is said, never skipped silently.
func TestPublishedNone(t *testing.T) {
	pc := &PublishedCheck{Match: matchRule, GPU: "b300", None: "published/throughput.yaml has no vLLM run on b300"}
	var text bytes.Buffer
	pc.writeText(&text)
	if !strings.Contains(text.String(), "None compared: published/throughput.yaml has no vLLM run on b300") || pc.Worse() {
		t.Errorf("worse %v; report:\n%s", pc.Worse(), text.String())
	}
}

// TestComparableRows: a published run is compared when it ran vLLM on the
// deployment's GPU on the deployment's side of the legacy line (V0-era
// releases), whatever its model; incomplete rows never.
func TestComparableRows(t *testing.T) {
	row := func(gpu, engine, version string) published.Row {
		return published.Row{Hardware: published.Hardware{GPU: gpu}, Engine: published.Engine{Name: engine, Version: version}, Model: published.Model{Catalog: "llama-3.1-8b"}}
	}
	incomplete := row("h200", "vllm", "0.11.0")
	incomplete.Incomplete = "layout not stated"
	for _, c := range []struct {
		name   string
		r      published.Row
		legacy bool
		want   bool
	}{
		{"same GPU, vLLM, V1 era", row("h200", "vllm", "0.11.0"), false, true},
		{"version unknown counts as current", row("h200", "vllm", "unknown"), false, true},
		{"another GPU", row("h100-sxm", "vllm", "0.11.0"), false, false},
		{"another engine", row("h200", "sglang", "0.5.7"), false, false},
		{"a V0-era release", row("h200", "vllm", "0.7.4.dev181+gf35f8e22"), false, false},
		{"a V0-era release for a V0-era deployment", row("h200", "vllm", "0.6.3.post2.dev308+gb489fc3c"), true, true},
		{"incomplete", incomplete, false, false},
	} {
		if got := comparable(c.r, "h200", c.legacy); got != c.want {
			t.Errorf("%s: comparable %v, want %v", c.name, got, c.want)
		}
	}
}

// TestOwnRun: a published run that is one of the results given to the fit
// (same model, load and mean lengths within 2%) is not a test of the fit.
func TestOwnRun(t *testing.T) {
	names := []string{"deepseek-ai/DeepSeek-R1-0528"}
	burst := published.Row{Model: published.Model{ID: "deepseek-ai/DeepSeek-R1-0528"},
		Load:     published.Load{Kind: published.LoadBurst, BurstRequests: published.Num{V: 500, Known: true}},
		Workload: published.Workload{InputTokens: published.Num{V: 4000, Known: true}, OutputTokens: published.Num{V: 200, Known: true}}}
	res := func(kind bench.LoadKind, n int, in, out float64) *bench.Result {
		return &bench.Result{Load: bench.Load{Kind: kind, Prompts: n, Concurrency: n}, Shape: bench.Shape{InputTokens: in, OutputTokens: out}}
	}
	other := burst
	other.Model.ID = "Qwen/Qwen3-235B-A22B"
	for _, c := range []struct {
		name string
		r    published.Row
		used *bench.Result
		want bool
	}{
		{"the same burst", burst, res(bench.LoadBurst, 500, 3995, 200), true},
		{"another burst size", burst, res(bench.LoadBurst, 100, 3995, 200), false},
		{"longer prompts", burst, res(bench.LoadBurst, 500, 4200, 200), false},
		{"a closed loop of as many", burst, res(bench.LoadClosedLoop, 500, 3995, 200), false},
		{"another model", other, res(bench.LoadBurst, 500, 3995, 200), false},
	} {
		if got := ownRun(c.r.Model, c.r.Workload, c.r.Load, names, []*bench.Result{c.used}); got != c.want {
			t.Errorf("%s: own %v, want %v", c.name, got, c.want)
		}
	}
}
