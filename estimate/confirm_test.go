package estimate

import (
	"encoding/json"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
)

// With `parallelism: auto`, the report's performance half takes the layout
// search's confirmation of the chosen layout instead of evaluating it again
// (no slo.Evaluate call), and the report is the one a fresh evaluation
// gives; with other options (another seed) it evaluates afresh.
func TestAddPerformanceTakesTheSearchsConfirmation(t *testing.T) {
	d, ds := spec.Load("../examples/deepseek-v3-fp8-2x8h200.yaml")
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	d.Parallelism = spec.Parallelism{Auto: true}
	spec.ApplyDefaults(d)
	base, ds := input.FromSpec(d)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	opt := PerfOptions{Seed: 1}
	chosen, s, _, c := SearchLayout(&base, opt)
	if s == nil || c == nil {
		t.Fatalf("search %v, confirmation %v", s, c)
	}
	in := FromResolved(chosen.Resolved()) // what check estimates
	calls := 0
	orig := evaluate
	evaluate = func(in *Input, m *memory.Report, o PerfOptions) slo.Result {
		calls++
		return orig(in, m, o)
	}
	t.Cleanup(func() { evaluate = orig })
	reportJSON := func(r *Report) string {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	got := Check(&in)
	got.AddPerformanceConfirmed(&in, opt, c)
	if calls != 0 {
		t.Fatalf("%d evaluations of the chosen layout after the search confirmed it, want 0", calls)
	}
	want := Check(&in)
	want.AddPerformance(&in, opt)
	if calls != 1 {
		t.Fatalf("AddPerformance made %d evaluations, want 1", calls)
	}
	if reportJSON(&got) != reportJSON(&want) {
		t.Errorf("report from the confirmation differs from a fresh evaluation's")
	}
	other := Check(&in)
	other.AddPerformanceConfirmed(&in, PerfOptions{Seed: 7}, c)
	if calls != 2 {
		t.Errorf("seed 7 with seed 1's confirmation: %d evaluations in all, want 2", calls)
	}
}
