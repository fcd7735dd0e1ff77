package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/internal/textfmt"
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

// TestPDHTMLGolden pins the P/D HTML report (the charts' geometry is
// pinned in report/svg; a diff here is layout or figures).
func TestPDHTMLGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTML(&b, checkPDExample(t)); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "deepseek-v3-pd-32xh20.html", b.String())
}

// TestPDHTMLCharts: `check -o html` is "one self-contained page with
// charts" for P/D too. The page draws two charts, no script and nothing
// external; the TTFT chart has every scenario's seven parts, each the
// scenario's own figure (its hover text, in the text report's seconds),
// and the utilisation chart each scenario's prefill, decode and NIC
// utilisation with what binds it in the caption.
func TestPDHTMLCharts(t *testing.T) {
	r := checkPDExample(t)
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	doc := strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, "")
	if m := externalRef.FindString(doc); m != "" {
		t.Errorf("external reference %q in the page", m)
	}
	if strings.Contains(doc, "<script") {
		t.Error("the page runs a script")
	}
	if n := strings.Count(page, "<svg "); n != 2 {
		t.Fatalf("%d charts, want 2 (TTFT by part, utilisation by part)", n)
	}
	if i, j := strings.Index(page, "<h2>Charts</h2>"), strings.Index(page, "<h2>Disaggregated: prefill pool</h2>"); i < 0 || j < i {
		t.Errorf("the charts (at %d) are not before the pools' tables (at %d)", i, j)
	}
	g := r.Disaggregated
	if len(g.Scenarios) < 2 {
		t.Fatalf("%d scenarios: the example should simulate two input lengths", len(g.Scenarios))
	}
	for i := range g.Scenarios {
		s := &g.Scenarios[i]
		n := textfmt.Thousands(int64(s.InputTokens))
		p := s.TTFTParts
		if s.Unbounded || p.Sum() <= 0 {
			t.Fatalf("%s tokens in: no finite TTFT to draw", n)
		}
		// The parts as scenarioLines prints them, in the order a request meets them.
		for _, part := range []struct {
			name string
			v    float64
		}{{"API servers", p.FrontendS}, {"prefill queue", p.PrefillQueueS}, {"prefill", p.PrefillS}, {"router hops", p.RouterS},
			{"KV hand-off", p.TransferS}, {"decode admission", p.DecodeAdmitS}, {"first decode step", p.FirstDecodeS}} {
			if part.v <= 0 {
				continue // a zero segment is not drawn
			}
			want := fmt.Sprintf("<title>%s</title>", htmlEscape(fmt.Sprintf("%s tokens in: %s %s of %s mean TTFT", n, part.name, textfmt.Seconds(part.v), textfmt.Seconds(p.Sum()))))
			if !strings.Contains(page, want) {
				t.Errorf("TTFT chart lacks the segment %q", want)
			}
		}
		for _, u := range []struct {
			name string
			v    float64
		}{{"prefill pool", s.PrefillUtilization}, {"decode pool", s.DecodeUtilization}, {"NICs (KV hand-off)", s.Transfer.Utilization}} {
			want := fmt.Sprintf("<title>%s</title>", htmlEscape(fmt.Sprintf("%s tokens in: %s %.0f%% utilised", n, u.name, 100*u.v)))
			if !strings.Contains(page, want) && !strings.Contains(page, strings.TrimSuffix(want, "</title>")+", binds the rate</title>") {
				t.Errorf("utilisation chart lacks the bar %q", want)
			}
		}
		if w := htmlEscape(n + " in: " + boundBy(s)); !strings.Contains(page, w) {
			t.Errorf("utilisation caption lacks %q", w)
		}
	}
}
