package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/resolve"
)

var htmlExamples = []string{"deepseek-v3-32xh20", "deepseek-v3-fp8-2x8h200", "llama-3.1-70b-8xa100", "qwen3-30b-a3b-1xh100"}

// TestHTMLGolden pins the HTML report of every example. The charts' own
// geometry is pinned in report/svg; a diff here is layout or figures.
func TestHTMLGolden(t *testing.T) {
	for _, name := range htmlExamples {
		r := checkExample(t, name+".yaml")
		var b bytes.Buffer
		if err := WriteHTML(&b, r); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, name+".html", b.String())
	}
}

// externalRef matches anything a browser would fetch: a URL in an
// attribute or in CSS, other than the SVG namespace name (which is an
// identifier, never fetched).
var externalRef = regexp.MustCompile(`(?i)(src|href)\s*=|url\(|@import|https?://`)

// TestHTMLSelfContained: the page references nothing outside itself, runs
// no script, and has one SVG per chart with the verdicts in the text
// report's words.
func TestHTMLSelfContained(t *testing.T) {
	r := checkExample(t, "deepseek-v3-32xh20.yaml")
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	doc := strings.ReplaceAll(b.String(), `xmlns="http://www.w3.org/2000/svg"`, "")
	if m := externalRef.FindString(doc); m != "" {
		t.Errorf("external reference %q in the page", m)
	}
	if strings.Contains(doc, "<script") {
		t.Error("the page runs a script")
	}
	if n := strings.Count(doc, "<svg "); n != 4 {
		t.Errorf("%d charts, want 4 (memory, throughput, TPOT, TTFT)", n)
	}
	var text bytes.Buffer
	WriteText(&text, r)
	for _, v := range r.SLO {
		h := sloHeadline(v)
		if !strings.Contains(text.String(), h) || !strings.Contains(b.String(), htmlEscape(h)) {
			t.Errorf("headline %q not in both reports", h)
		}
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestHTMLPipelineStages: with PP the memory chart draws one bar per kind
// of stage (the first holds the embedding, the last the LM head), and the
// quick form (no SLO, no simulation of targets) still renders.
func TestHTMLPipelineStages(t *testing.T) {
	d, err := resolve.Quick(resolve.QuickOptions{Model: "llama-3.1-405b", GPU: "h100", TP: 8, PP: 4, Concurrency: 8})
	if err != nil {
		t.Fatal(err)
	}
	in := estimate.FromResolved(d)
	r := estimate.Check(&in)
	r.AddPerformance(&in, estimate.PerfOptions{Seed: 1})
	groups := distinctStages(&r, weightColorsOf(r.Memory.Stages))
	var labels []string
	for _, g := range groups {
		labels = append(labels, g.label)
	}
	if len(groups) < 2 || groups[0].label != "stage 0" || !strings.Contains(groups[len(groups)-1].label, "3") {
		t.Errorf("stage bars %q: want the first and last stage apart", labels)
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, &r); err != nil {
		t.Fatal(err)
	}
	for _, l := range labels {
		if !strings.Contains(b.String(), ">"+l+"</text>") {
			t.Errorf("bar %q not drawn", l)
		}
	}
}
