package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/validate"
)

// A deployment vLLM refuses to start (newuser40 spec 06, EST102) prints no
// predicted figure in any renderer: the text printed "FAIL TPOT (mean):
// target 40 ms, predicted 0 s  [kv_capacity]" and a "simulated under the
// workload's load" explanation.
func TestNotPredictedVerdictWords(t *testing.T) {
	d, ds, err := validate.File(filepath.Join("..", "estimate", "testdata", "not-starting-llama33-70b-dp16.yaml"))
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	in := estimate.FromResolved(d)
	r := estimate.Check(&in)
	r.AddPerformance(&in, estimate.PerfOptions{Seed: 1})
	if len(r.SLO) == 0 {
		t.Fatal("no verdicts")
	}
	const want = "FAIL TPOT (mean): target 40 ms, not predicted: vLLM does not start (EST102)"
	if got := VerdictLine(r.SLO[0]); got != want {
		t.Errorf("verdict line %q; want %q", got, want)
	}
	var text, md, html bytes.Buffer
	WriteText(&text, &r)
	WriteMarkdown(&md, &r)
	if err := WriteHTML(&html, &r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": html.String(), "summary": SummaryMarkdown(&r)} {
		if !strings.Contains(out, "not predicted: vLLM does not start (EST102)") {
			t.Errorf("%s: no \"not predicted\"", name)
		}
		for _, bad := range []string{"predicted 0 s", "predicted not predicted", "| 0 s |", "simulated under the workload"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s prints %q", name, bad)
			}
		}
	}
}
