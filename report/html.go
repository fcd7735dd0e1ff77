package report

import (
	"bytes"
	_ "embed"
	"html/template"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

//go:embed html.tmpl
var htmlTemplate string

// page is what the HTML template lays out: words the text report prints
// (headings, verdicts, notes, findings) and charts drawn by package svg.
type page struct {
	Title   string
	Heading string
	Lines   []string
	// Settings are the engine settings with their provenance (check only).
	Settings []settingRow
	Feasible bool
	// FeasibleWord is the overall verdict: yes, uncertain or no
	// (feasibleWord); empty for a page that sets Feasible alone (plan).
	FeasibleWord string
	// FeasibleWhy names what makes a check infeasible or uncertain
	// (feasibleWhy).
	FeasibleWhy string
	Verdicts    []verdictView
	Charts      []chartView
	Notes       []memory.Note
	Findings    string
	Extra       template.HTML // sections a caller adds (plan's candidate table)
	// Details are the text report's tables the charts only draw (memory,
	// KV cache, capacity, performance), after the charts.
	Details template.HTML
}

// verdictView is one SLO verdict in the text report's words.
type verdictView struct {
	Class, Verdict, Headline, Explanation string
	Band                                  string // what sets the prediction's band ("" without one)
	WouldTake                             []string
}

// chartView is one figure: an inline SVG and the sentence that says how to
// read it.
type chartView struct {
	Title, Caption string
	SVG            template.HTML
}

var pageTmpl = template.Must(template.New("report").Parse(htmlTemplate))

// WriteHTML writes the check report as one self-contained HTML page: the
// verdicts with their derivations (the text report's words), per-GPU
// memory, throughput and TPOT against concurrency and the simulated TTFT
// distributions as inline SVG (for P/D instead the mean TTFT by part and
// the pools' and NICs' utilisation: pdCharts), every table of the text
// report (memory,
// KV cache, capacity, weights formats, performance; for P/D the pools,
// hand-off, scenarios and comparison: TestHTMLHoldsEveryTextSection), the
// notes and the findings. It loads
// nothing from the network and needs no script, so it works offline and
// prints as it shows.
func WriteHTML(w io.Writer, r *estimate.Report) error {
	if r.Disaggregated != nil {
		return writePage(w, pdPage(r))
	}
	return writePage(w, checkPage(r))
}

func writePage(w io.Writer, p *page) error {
	return pageTmpl.Execute(w, p)
}

// checkPage assembles the page of one check report.
func checkPage(r *estimate.Report) *page {
	in := r.Input
	p := &page{Title: "vlaunch check: " + in.Model, Heading: layoutLine(in), Feasible: r.Feasible, FeasibleWord: feasibleWord(r), FeasibleWhy: feasibleWhy(r), Notes: r.Notes}
	p.Settings = settingRows(in)
	if len(p.Settings) == 0 {
		p.Lines = append(p.Lines, settingsLine(in))
	}
	if in.Speculative != nil && len(p.Settings) > 0 {
		p.Lines = append(p.Lines, in.Speculative.Text())
	}
	p.Verdicts = verdictViews(r.SLO)
	p.Charts = checkCharts(r)
	p.Extra = termsSection(r)
	p.Details = renderDetails(checkDetails(r))
	p.Findings = findingsText(r.Findings)
	return p
}

func verdictViews(slo []slo.Verdict) []verdictView {
	var out []verdictView
	for _, v := range slo {
		vv := verdictView{Class: verdictClass(v.Verdict), Verdict: strings.ToUpper(v.Verdict), Headline: sloHeadline(v), Explanation: v.Explanation, Band: bandLine(v)}
		for _, x := range v.WouldPass {
			vv.WouldTake = append(vv.WouldTake, wouldTake(x))
		}
		out = append(out, vv)
	}
	return out
}

// findingsText is diag's text printer's output, as every command prints it.
func findingsText(ds diag.Diagnostics) string {
	if len(ds) == 0 {
		return "none"
	}
	var b bytes.Buffer
	_ = diag.Print(&b, diag.FormatText, ds, nil, nil)
	return strings.TrimRight(b.String(), "\n")
}
