package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/pd"
)

// writePDMarkdown is the markdown report of a disaggregated deployment:
// the text report's sections as lists and tables.
func writePDMarkdown(w io.Writer, r *estimate.Report) {
	g := r.Disaggregated
	fmt.Fprintf(w, "# vlaunch check: %s\n\n%s\n\n**Feasible: %s**\n", mdEscape(pdLine(r)), mdEscape(settingsLine(r.Input)), yesNo(r.Feasible))
	for _, p := range []*pd.Pool{&g.Prefill, &g.Decode} {
		fmt.Fprintf(w, "\n## Disaggregated: %s pool\n\n", p.Role)
		mdList(w, poolLines(p))
	}
	fmt.Fprintf(w, "\n## Disaggregated: hand-off\n\n")
	mdList(w, handoffLines(g))
	fmt.Fprintf(w, "\n## Performance (disaggregated, simulated)\n\n")
	for i := range g.Scenarios {
		mdList(w, scenarioLines(&g.Scenarios[i]))
	}
	if g.Colocated != nil {
		fmt.Fprintf(w, "\n## Same GPUs colocated\n\n```\n")
		for _, l := range colocatedLines(g) {
			fmt.Fprintln(w, l)
		}
		fmt.Fprintf(w, "```\n")
	}
	writeSLOMarkdown(w, r.SLO)
	fmt.Fprintf(w, "\n## Notes\n\n")
	mdList(w, g.Notes)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "- **%s (decode pool).** %s\n", n.Topic, n.Text)
	}
	writeFindingsMarkdown(w, r.Findings)
}

// mdList writes lines as a markdown list.
func mdList(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintf(w, "- %s\n", mdEscape(l))
	}
}

// pdPage is the HTML page of a disaggregated deployment: the verdicts, the
// pools, hand-off, scenarios and comparison as the text report words them,
// the notes and the findings (no charts: they draw colocated figures).
func pdPage(r *estimate.Report) *page {
	g := r.Disaggregated
	p := &page{Title: "vlaunch check: " + r.Input.Model, Heading: pdLine(r), Feasible: r.Feasible, Lines: []string{settingsLine(r.Input)}}
	p.Verdicts = verdictViews(r.SLO)
	for _, n := range g.Notes {
		p.Notes = append(p.Notes, memory.Note{Topic: "P/D", Text: n})
	}
	for _, n := range r.Notes {
		p.Notes = append(p.Notes, memory.Note{Topic: n.Topic + " (decode pool)", Text: n.Text})
	}
	var b bytes.Buffer
	section := func(title string, lines []string) {
		fmt.Fprintf(&b, "<h2>%s</h2>\n<pre>", template.HTMLEscapeString(title))
		for _, l := range lines {
			b.WriteString(template.HTMLEscapeString(l) + "\n")
		}
		b.WriteString("</pre>\n")
	}
	for _, pool := range []*pd.Pool{&g.Prefill, &g.Decode} {
		section("Disaggregated: "+pool.Role+" pool", poolLines(pool))
	}
	section("Disaggregated: hand-off", handoffLines(g))
	var sc []string
	for i := range g.Scenarios {
		sc = append(sc, scenarioLines(&g.Scenarios[i])...)
	}
	section("Performance (disaggregated, simulated)", sc)
	if g.Colocated != nil {
		section("Same GPUs colocated", colocatedLines(g))
	}
	p.Extra = template.HTML(b.String())
	p.Findings = findingsText(r.Findings)
	return p
}
