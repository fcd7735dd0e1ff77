package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/plan"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/validate"
)

// planExample runs `vlaunch plan` on an example as the command does.
func planExample(t testing.TB, name string, top int) (*plan.Result, *resolve.Deployment) {
	t.Helper()
	path := filepath.Join("..", "examples", name+".yaml")
	d, ds, err := validate.File(path)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%s: %v %v", name, err, ds)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := plan.Plan(d, plan.Options{Seed: 1, Top: top, File: path, Source: src})
	return r, d
}

// TestPlanGolden pins the plan's text and JSON for the reference scenario,
// the P/D example (P/D and colocated candidates in one list, the spec's own
// pools, why P/D does not pay) and the single-GPU example, and the HTML
// page of the latter.
func TestPlanGolden(t *testing.T) {
	for _, name := range []string{"deepseek-v3-32xh20", "deepseek-v3-pd-32xh20", "qwen3-30b-a3b-1xh100"} {
		r, d := planExample(t, name, 3)
		var text, js bytes.Buffer
		WritePlanText(&text, r)
		if err := WritePlanJSON(&js, r); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, name+".plan.txt", text.String())
		checkGolden(t, name+".plan.json", js.String())
		if name != "qwen3-30b-a3b-1xh100" {
			continue
		}
		best, err := plan.CheckReport(d, r.Top[0].Settings, 1)
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := WritePlanHTML(&page, r, best); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, name+".plan.html", page.String())
		if n := strings.Count(page.String(), "<svg "); n != 5 {
			t.Errorf("%d charts on the plan page, want 5 (Pareto, memory, throughput, TPOT, TTFT)", n)
		}
	}
}

// TestPlanHeadlineBand: a verdict with a prediction band (#10) shows it
// after the prediction, in the SLO's unit; uncertain is its own class.
func TestPlanHeadlineBand(t *testing.T) {
	v := plan.SLOResult{Name: "TTFT p99 at 512 input tokens", Unit: "s", Target: 1.5, Predicted: 1.9, Verdict: "uncertain",
		Binding: "queueing", Band: &plan.Band{Low: 1.3, High: 2.7}}
	want := "TTFT p99 at 512 input tokens: target 1.5 s, predicted 1.9 s (1.3–2.7 s)  [queueing]"
	if got := planSLOHeadline(v); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if c := verdictClass(v.Verdict); c != "uncertain" {
		t.Errorf("class %q", c)
	}
}
