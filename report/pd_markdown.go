package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/pd"
)

// writePDMarkdown is the markdown report of a disaggregated deployment:
// the text report's sections as lists and tables.
func writePDMarkdown(w io.Writer, r *estimate.Report) {
	g := r.Disaggregated
	fmt.Fprintf(w, "# vlaunch check: %s\n\n%s\n\n**Feasible: %s**\n", mdEscape(pdLine(r)), mdEscape(pdSettingsLine(r)), mdEscape(feasibleText(r)))
	for _, p := range []*pd.Pool{&g.Prefill, &g.Decode} {
		fmt.Fprintf(w, "\n## Disaggregated: %s pool\n\n", p.Role)
		mdList(w, poolLines(p, g))
	}
	fmt.Fprintf(w, "\n## Disaggregated: hand-off\n\n")
	mdList(w, handoffLines(g))
	fmt.Fprintf(w, "\n## Performance (disaggregated, simulated)\n\n")
	for i := range g.Scenarios {
		mdList(w, scenarioLines(&g.Scenarios[i], arrivalShape(r)))
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
// pools, hand-off, scenarios and comparison as tables of the text report's
// lines (label, value) after the P/D charts (pdCharts: TTFT by part,
// utilisation by part), the notes and the findings.
func pdPage(r *estimate.Report) *page {
	g := r.Disaggregated
	p := &page{Title: "vlaunch check: " + r.Input.Model, Heading: pdLine(r), Feasible: r.Feasible, FeasibleWord: feasibleWord(r), FeasibleWhy: feasibleWhy(r), Lines: []string{pdSettingsLine(r)}}
	p.Verdicts = verdictViews(r.SLO)
	p.Charts = pdCharts(g)
	for _, n := range g.Notes {
		p.Notes = append(p.Notes, memory.Note{Topic: "P/D", Text: n})
	}
	for _, n := range r.Notes {
		p.Notes = append(p.Notes, memory.Note{Topic: n.Topic + " (decode pool)", Text: n.Text})
	}
	var secs []detailSection
	for _, pool := range []*pd.Pool{&g.Prefill, &g.Decode} {
		secs = append(secs, detailSection{Title: "Disaggregated: " + pool.Role + " pool", Tables: []detailTable{labelTable("", poolLines(pool, g))}})
	}
	secs = append(secs, detailSection{Title: "Disaggregated: hand-off", Tables: []detailTable{labelTable("", handoffLines(g))}})
	perf := detailSection{Title: "Performance (disaggregated, simulated)"}
	if len(g.Scenarios) == 0 {
		perf.Lines = []string{"none: a pool's KV cache holds no block (see the findings)"}
	}
	for i := range g.Scenarios {
		l := scenarioLines(&g.Scenarios[i], arrivalShape(r))
		perf.Tables = append(perf.Tables, labelTable(l[0], l[1:]))
	}
	secs = append(secs, perf)
	if c := g.Colocated; c != nil {
		co := detailSection{Title: "Same GPUs colocated"}
		if c.Error != "" {
			co.Lines = []string{"not compared: " + c.Error}
		} else {
			t := detailTable{Caption: c.Layout, Head: []string{"", "disaggregated", "colocated"}}
			for _, row := range colocatedRows(g) {
				t.Rows = append(t.Rows, row[:])
			}
			if len(t.Rows) > 0 {
				t.After = colocatedVerdicts(c)
			}
			co.Tables = []detailTable{t}
		}
		secs = append(secs, co)
	}
	p.Details = renderDetails(secs)
	p.Findings = findingsText(r.Findings)
	return p
}

// labelTable lays out lines of "label  value" (the text report's
// aligned labels, two spaces or more before the value) as a two-column
// table.
func labelTable(caption string, lines []string) detailTable {
	t := detailTable{Caption: caption, Left: []int{1}}
	for _, l := range lines {
		label, value, ok := strings.Cut(l, "  ")
		if !ok {
			label, value = l, ""
		}
		t.Rows = append(t.Rows, []string{strings.TrimSpace(label), strings.TrimSpace(value)})
	}
	return t
}
