package report

import (
	"bytes"
	"html"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/plan"
	"github.com/vlaunch/vlaunch/validate"
)

// textSections are the sections of a text report, read from its output:
// the first line and every line at column 0 after a blank line (how the
// text renderers start a section), but the closing "feasible:" line, each
// cut to its stem (textStem). A section the text renderer gains is in
// this list without anyone adding it.
func textSections(text string) []string {
	var out []string
	prev := ""
	for i, l := range strings.Split(text, "\n") {
		if l != "" && (i == 0 || prev == "") && !unicode.IsSpace([]rune(l)[0]) && !strings.HasPrefix(l, "feasible: ") {
			out = append(out, textStem(l))
		}
		prev = l
	}
	return out
}

// textStem is a heading without what follows its name: the part before
// " (" and before ": " when what follows the colon is a sentence or has
// figures ("Performance: …", "Pareto front: …", "vlaunch check: model …"),
// not when it names the section ("Disaggregated: hand-off").
func textStem(l string) string {
	l, _, _ = strings.Cut(l, " (")
	if name, rest, ok := strings.Cut(l, ": "); ok && (len(strings.Fields(rest)) > 3 || strings.ContainsAny(rest, "0123456789")) {
		return name
	}
	return l
}

var htmlHeadingRe = regexp.MustCompile(`(?s)<(h1|h2|caption)>(.*?)</(?:h1|h2|caption)>`)

// htmlHeadings are the page's headings and table captions, unescaped.
func htmlHeadings(doc string) []string {
	var out []string
	for _, m := range htmlHeadingRe.FindAllStringSubmatch(doc, -1) {
		out = append(out, html.UnescapeString(m[2]))
	}
	return out
}

// perfBlocks are the blocks of the text report's performance section (a
// line at two spaces' indent starting with the key) and the caption of
// the HTML table that holds each.
var perfBlocks = map[string]string{
	"  decode at ":                 "Decode step at ",
	"  decode curve ":              "Decode curve",
	"  prefill on an idle system ": "Prefill on an idle system",
	"  simulation: ":               "Simulation: ",
	"  alternatives ":              "Alternatives",
}

// missingFromHTML lists the text report's sections and performance
// blocks that no heading or caption of the HTML page starts with.
func missingFromHTML(text, page string) []string {
	heads := htmlHeadings(page)
	has := func(stem string) bool {
		for _, h := range heads {
			if strings.HasPrefix(h, stem) {
				return true
			}
		}
		return false
	}
	var missing []string
	for _, s := range textSections(text) {
		if !has(s) {
			missing = append(missing, s)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(perfBlocks)) {
		if caption := perfBlocks[key]; strings.Contains(text, "\n"+key) && !has(caption) {
			missing = append(missing, caption)
		}
	}
	for _, v := range []string{"yes", "no"} {
		if strings.HasSuffix(text, "\nfeasible: "+v+"\n") && !strings.Contains(page, "feasible: <strong>"+v+"</strong>") {
			missing = append(missing, "feasible: "+v)
		}
	}
	return missing
}

// checkAnyExample runs `vlaunch check` on any example, colocated or
// disaggregated, as the command does.
func checkAnyExample(t *testing.T, path string) *estimate.Report {
	t.Helper()
	d, ds, err := validate.File(path)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%s: %v %v", path, err, ds)
	}
	if d.PD != nil {
		r := estimate.CheckPD(d, estimate.PerfOptions{Seed: 1})
		d.Spec.Locate(r.Findings)
		return &r
	}
	return checkExample(t, filepath.Base(path))
}

// TestHTMLHoldsEveryTextSection: for every example (colocated and P/D),
// every section the text report prints — read from the text report
// itself — and every block of its performance section has a heading or a
// table caption on the HTML page; and the same for the plan.
func TestHTMLHoldsEveryTextSection(t *testing.T) {
	examples, err := filepath.Glob(filepath.Join("..", "examples", "*.yaml"))
	if err != nil || len(examples) < 5 {
		t.Fatalf("examples: %v %v", examples, err)
	}
	sawPD := false
	for _, path := range examples {
		r := checkAnyExample(t, path)
		sawPD = sawPD || r.Disaggregated != nil
		var text, page bytes.Buffer
		WriteText(&text, r)
		if err := WriteHTML(&page, r); err != nil {
			t.Fatal(err)
		}
		if len(textSections(text.String())) < 6 {
			t.Errorf("%s: the text report's sections not found: %q", path, textSections(text.String()))
		}
		if m := missingFromHTML(text.String(), page.String()); len(m) > 0 {
			t.Errorf("%s: the HTML report lacks the text report's %q", filepath.Base(path), m)
		}
	}
	if !sawPD {
		t.Error("no P/D example: the P/D report's parity is not checked")
	}
	t.Run("plan", func(t *testing.T) {
		r, d := planExample(t, "qwen3-30b-a3b-1xh100", 2)
		best, err := plan.CheckReport(d, r.Top[0].Settings, 1)
		if err != nil {
			t.Fatal(err)
		}
		var text, page bytes.Buffer
		WritePlanText(&text, r)
		if err := WritePlanHTML(&page, r, best); err != nil {
			t.Fatal(err)
		}
		if m := missingFromHTML(text.String(), page.String()); len(m) > 0 {
			t.Errorf("the plan's HTML page lacks the text's %q", m)
		}
	})
	t.Run("layout search", func(t *testing.T) {
		r := checkExample(t, "qwen3-30b-a3b-1xh100.yaml")
		c := estimate.LayoutCandidate{TP: 1, PP: 1, DP: 1, Fits: true, SLOTotal: 1, SLOPassed: 1}
		r.LayoutSearch = &estimate.LayoutSearch{Candidates: []estimate.LayoutCandidate{c}, Chosen: c}
		var text, page bytes.Buffer
		WriteText(&text, r)
		if err := WriteHTML(&page, r); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(text.String(), "Layout search") {
			t.Fatalf("the text report does not start with the layout search:\n%.200s", text.String())
		}
		if m := missingFromHTML(text.String(), page.String()); len(m) > 0 {
			t.Errorf("the HTML report lacks the text report's %q", m)
		}
	})
}

// TestParityCheckCanFail: the parity check notices a section the HTML
// page lacks.
func TestParityCheckCanFail(t *testing.T) {
	r := checkExample(t, "qwen3-30b-a3b-1xh100.yaml")
	var text, page bytes.Buffer
	WriteText(&text, r)
	if err := WriteHTML(&page, r); err != nil {
		t.Fatal(err)
	}
	for _, drop := range []string{"<h2>Capacity</h2>", "<caption>Decode curve", "<h2>Per-GPU memory"} {
		cut := strings.Replace(page.String(), drop, "<h2>gone", 1)
		if cut == page.String() {
			t.Fatalf("%q not on the page", drop)
		}
		if len(missingFromHTML(text.String(), cut)) == 0 {
			t.Errorf("removing %q goes unnoticed", drop)
		}
	}
}

// TestTextStem: the stems the parity check compares.
func TestTextStem(t *testing.T) {
	for in, want := range map[string]string{
		"Per-GPU memory (GiB)":                         "Per-GPU memory",
		"Disaggregated: hand-off":                      "Disaggregated: hand-off",
		"Performance: no estimate: x y z w":            "Performance",
		"The spec's own settings: TP 1 · PP 1":         "The spec's own settings",
		"Layout search (parallelism: auto): 3 layouts": "Layout search",
		"SLO": "SLO",
	} {
		if got := textStem(in); got != want {
			t.Errorf("textStem(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHTMLDetailsEscape: words in the new tables reach the page escaped.
func TestHTMLDetailsEscape(t *testing.T) {
	r := checkExample(t, "qwen3-30b-a3b-1xh100.yaml")
	r.Memory.Weights[0].Placement = `<b onclick="x">&`
	r.Performance.Alternatives[0].Name = "<i>alt</i>"
	var page bytes.Buffer
	if err := WriteHTML(&page, r); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{`<b onclick`, `<i>alt`} {
		if strings.Contains(page.String(), raw) {
			t.Errorf("%q reached the page unescaped", raw)
		}
	}
	if !strings.Contains(page.String(), "&lt;b onclick=&#34;x&#34;&gt;&amp;") || !strings.Contains(page.String(), "&lt;i&gt;alt&lt;/i&gt;") {
		t.Error("the escaped words are not on the page")
	}
}
