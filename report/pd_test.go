package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/validate"
)

// checkPDExample runs `vlaunch check` on the P/D example as the command does.
func checkPDExample(t testing.TB) *estimate.Report {
	t.Helper()
	d, ds, err := validate.File(filepath.Join("..", "examples", "deepseek-v3-pd-32xh20.yaml"))
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v", err, ds)
	}
	r := estimate.CheckPD(d, estimate.PerfOptions{Seed: 1})
	d.Spec.Locate(r.Findings)
	return &r
}

// Every renderer takes a P/D report: its own sections, no colocated
// section with the decode pool's figures passed off as the deployment's,
// and no NaN, Inf or negative figure.
func TestPDReportsRender(t *testing.T) {
	r := checkPDExample(t)
	var text, md, html, js bytes.Buffer
	WriteText(&text, r)
	WriteMarkdown(&md, r)
	if err := WriteHTML(&html, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		out  string
		want []string
	}{
		"text":     {text.String(), []string{"Disaggregated: prefill pool", "Disaggregated: decode pool", "Disaggregated: hand-off", "TTFT parts", "Same GPUs colocated", "feasible: "}},
		"markdown": {md.String(), []string{"## Disaggregated: prefill pool", "## Disaggregated: hand-off", "## SLO", "TTFT parts"}},
		"html":     {html.String(), []string{"<h2>Disaggregated: decode pool</h2>", "<h2>Disaggregated: hand-off</h2>", "<h2>SLO</h2>"}},
		"json":     {js.String(), []string{`"disaggregated"`, `"ttft_parts"`, `"bytes_per_token": 70272`, `"colocated"`}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("%s report lacks %q", name, w)
			}
		}
		for _, bad := range []string{"NaN", "+Inf", "-Inf", "%!", "Per-GPU memory (GiB", "Decode at "} {
			if strings.Contains(c.out, bad) {
				t.Errorf("%s report has %q", name, bad)
			}
		}
	}
	var back map[string]any
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Errorf("JSON does not parse: %v", err)
	}
}
