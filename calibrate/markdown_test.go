package calibrate

import (
	"bytes"
	"strings"
	"testing"
)

// TestMarkdownReport: a result's file name cannot break the Markdown
// tables (pipes and newlines escaped), and the published runs' warning is
// a quoted paragraph, as is "none compared".
func TestMarkdownReport(t *testing.T) {
	r := &Report{Deployment: "m on 8 × h200", Start: "the global constants",
		Results:   []ResultReport{{Name: "run|1\nforged.json", Load: "burst of 10 prompts at once", Shape: "100 in / 10 out tokens"}},
		Constants: []ConstantReport{{Name: "step_overhead_s", Before: 2e-3, After: 3e-3, Fitted: true}},
		Targets:   []TargetReport{{Result: "run|1\nforged.json", Metric: "output tok/s", Measured: 100, Before: 150, After: 105, Fitted: true}},
		Published: &PublishedCheck{Match: matchRule, GPU: "h200", Rows: 2, Figures: 3, MedianBeforePct: 5, MedianAfterPct: 25,
			Worsened: []PublishedFigure{{Row: "row-a", Metric: "tpot_ms.mean", Published: 20, BeforePct: 3, AfterPct: 30}}},
		used: []int{0}}
	r.Published.setWarning(1, 0.4, 0.05)
	var b bytes.Buffer
	r.WriteMarkdown(&b)
	out := b.String()
	for _, want := range []string{
		"| run\\|1\\nforged.json | burst of 10 prompts at once, 100 in / 10 out tokens |\n",
		"| step_overhead_s | 2.00 ms | 3.00 ms | ×1.50 |\n",
		"| row-a | tpot_ms.mean | 20.00 | +3.0% | +30.0% |\n",
		"\n> **Warning:** the fit improves your 1 result (worst error 49.2% → 5.1%) but worsens 1 published figure of vLLM on the same GPU (h200; median |error| over 3 figures 5.0% → 25.0%): it may be fitting this run's noise.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the Markdown report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\nforged.json") {
		t.Errorf("a file name forged a line:\n%s", out)
	}
	r.Published = &PublishedCheck{Match: matchRule, GPU: "b300", None: "no vLLM run on b300"}
	b.Reset()
	r.WriteMarkdown(&b)
	if !strings.Contains(b.String(), "\nNone compared: no vLLM run on b300.\n") || strings.Contains(b.String(), "Warning") {
		t.Errorf("none compared:\n%s", b.String())
	}
}
