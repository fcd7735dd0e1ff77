package estimate

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/validate"
)

// TestSummaryMarkdownReference checks the bundle summary of the reference
// scenario says it is not feasible, names the failing SLOs and what binds
// them, and carries the error-level finding.
func TestSummaryMarkdownReference(t *testing.T) {
	d, ds, err := validate.File("../examples/deepseek-v3-32xh20.yaml")
	if err != nil || ds.HasErrors() {
		t.Fatalf("reference spec: %v %v", err, ds)
	}
	in, ids := FromSpec(d)
	if ids.HasErrors() {
		t.Fatal(ids)
	}
	r := Check(&in)
	r.AddPerformance(&in, PerfOptions{})
	got := r.SummaryMarkdown()
	for _, want := range []string{"**not feasible**", "FAIL throughput (output tokens/s)", "bound by network", "[EST103]", "7 on the fullest rank"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}
