package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/plan"
	"github.com/vlaunch/vlaunch/report/svg"
)

// WritePlanHTML writes the plan as one self-contained page: the ranked
// candidates with their verdicts, the Pareto chart (hover a point for its
// layout and verdicts), the spec's own settings, the SLOs no candidate
// meets, the Pareto front as a table, the sensitivity of
// the best one, then that candidate's check report (best, when given:
// memory, throughput, TPOT and TTFT charts and every verdict's
// derivation).
func WritePlanHTML(w io.Writer, r *plan.Result, best *estimate.Report) error {
	p := &page{Title: "vlaunch plan: " + r.Subject.Model, Heading: planSubject(r.Subject), Feasible: len(r.Top) > 0 && r.Top[0].MeetsAll()}
	if best != nil {
		p = checkPage(best)
		p.Title, p.Heading = "vlaunch plan: "+r.Subject.Model, planSubject(r.Subject)
		// The candidate's values, not their provenance: plan chose them.
		first := []string{"the best candidate, #1, in detail below: " + layoutLine(best.Input), settingsLine(best.Input)}
		if len(r.Top) > 0 && r.Top[0].PD != nil { // the report's input is the decode pool's: name both pools
			first = []string{"the best candidate, #1, in detail below (check's report of the P/D deployment): " + r.Top[0].Settings.String()}
		}
		p.Lines = append(first, p.Lines...)
		p.Settings = nil
	}
	p.Extra = template.HTML(planSections(r))
	return writePage(w, p)
}

var planTmpl = template.Must(template.New("plan").Parse(`
{{if .Fewest}}<h2>{{.FewestHeading}}</h2>
{{range .Fewest}}<p class="settings">{{.}}</p>
{{end}}{{end}}<h2>{{.Heading}}</h2>
<p class="settings">{{.Stats}}</p>
{{range .PD}}<p class="settings">{{.}}</p>
{{end}}{{range .Refused}}<p class="settings">{{.}}</p>
{{end}}<table>
<tr><th>#</th><th>kind</th><th>candidate</th><th>SLOs met</th><th>output tokens/s</th><th>per GPU</th><th>TPOT</th><th>KV GiB/GPU</th><th>bound by</th><th>TTFT mean: P queue + prefill step(s) + KV transfer + D admission queue + D first step</th><th>verdicts</th></tr>
{{range .Rows}}<tr{{if .Own}} class="own"{{end}}><td>{{.Rank}}</td><td>{{.Kind}}</td><td class="left">{{.Name}}{{if .Own}} (the spec's own){{end}}</td><td>{{.Met}}</td><td>{{.Tok}}</td><td>{{.PerGPU}}</td><td>{{.TPOT}}</td><td>{{.KV}}</td><td>{{.Binding}}</td><td>{{.TTFTParts}}</td><td class="left">{{range .Verdicts}}<span class="{{.Class}}"><span class="verdict" title="{{.Headline}}">{{.Word}}</span></span> {{end}}</td></tr>
{{end}}</table>
{{range .Alike}}<p class="settings">{{.}}</p>
{{end}}<div class="charts"><figure>
{{.Pareto}}<figcaption>Output tokens/s per GPU against TPOT in steady decoding (the step model, one basis for every candidate): grey dots are each layout's best candidate at the workload's concurrency, the blue line the Pareto front over every candidate and concurrency. Hover a point for its settings and verdicts.</figcaption>
</figure></div>
{{if .Own}}<h2>The spec&#39;s own settings: {{.Own.Name}}</h2>
{{range .Own.Lines}}<p class="settings">{{.}}</p>
{{end}}{{end}}
{{if .Unmet}}<h2>SLOs no candidate passes on this hardware</h2>
<ul>{{range .Unmet}}<li>{{.}}</li>
{{end}}</ul>{{end}}
{{if .Front}}<h2>Pareto front: output tokens/s per GPU against TPOT (steady decode, step model; a candidate at a concurrency)</h2>
<table class="terms"><tr><th>TPOT</th><th>tok/s/GPU</th><th>sessions</th><th>candidate</th></tr>
{{range .Front}}<tr><td>{{index . 0}}</td><td>{{index . 1}}</td><td>{{index . 2}}</td><td class="left">{{index . 3}}</td></tr>
{{end}}</table>{{end}}
{{if .Flips}}<h2>What flips a verdict of #1</h2>
<ul>{{range .Flips}}<li>{{.}}</li>
{{end}}</ul>{{end}}
{{if .Left}}<h2>Not varied</h2>
<ul>{{range .Left}}<li>{{.}}</li>
{{end}}</ul>{{end}}
{{if .Rows}}<h2>To use candidate N</h2>
<pre>vlaunch plan SPEC --apply N --out-file FILE
vlaunch generate FILE --out-dir DIR</pre>{{end}}
<h2>#1 in detail</h2>
`))

// planRow is one line of the candidate table.
type planRow struct {
	Rank, Kind, Binding          string
	TTFTParts                    string
	Name, Met, Tok, PerGPU, TPOT string
	KV                           string
	Own                          bool
	Verdicts                     []verdictBadge
}

type verdictBadge struct{ Class, Word, Headline string }

func planSections(r *plan.Result) string {
	st := r.Stats
	data := struct {
		Stats              string
		Rows               []planRow
		Alike              []string
		Pareto             template.HTML
		Unmet, Flips, Left []string
		Refused            []string
		Own                *ownView
		Front              [][4]string
		PD                 []string
		Heading            string
		FewestHeading      string
		Fewest             []string
	}{
		Heading: listHeading(r), FewestHeading: fewestHeading, Fewest: fewestLines(r),
		Stats: fmt.Sprintf("%s; %d fit in memory and vlaunch generate writes them (%d refused); %d simulated; predicted with %s",
			candidateCounts(st), st.FitMemory, st.Refused, st.Simulated, r.Calibration),
		Pareto: template.HTML(paretoChart(r)), Left: append(append([]string(nil), r.Left...), r.PD.Notes...), PD: pdSummaryLines(r),
	}
	if l := shortListNote(r); l != "" {
		data.Stats += "; " + l
	}
	if st.Unsettled > 0 {
		data.Stats += fmt.Sprintf("; the simulation budget ran out with %d groups unsimulated whose bound could still reach the top list", st.Unsettled)
	}
	for _, why := range st.Reasons {
		data.Refused = append(data.Refused, fmt.Sprintf("refused (%d): %s", why.Count, why.Why))
	}
	data.Own = ownViewOf(r)
	for _, p := range r.Pareto {
		rank := ""
		if p.Rank > 0 {
			rank = fmt.Sprintf("#%d ", p.Rank)
		}
		data.Front = append(data.Front, [4]string{textfmt.Seconds(p.TPOTS), fmt.Sprintf("%.1f", p.PerGPU), fmt.Sprint(p.Sessions), rank + p.Settings.String()})
	}
	for _, c := range r.Top {
		data.Rows = append(data.Rows, planRowOf(c))
		for _, a := range c.Alike {
			data.Alike = append(data.Alike, fmt.Sprintf("#%d has the same figures as: %s", c.Rank, a))
		}
		if c.AlikeMore > 0 {
			data.Alike = append(data.Alike, fmt.Sprintf("#%d has the same figures as %d more settings", c.Rank, c.AlikeMore))
		}
	}
	if o := r.Own; o != nil && o.Rank == 0 {
		data.Rows = append(data.Rows, planRowOf(*o))
	}
	for _, u := range r.Unmet {
		data.Unmet = append(data.Unmet, unmetText(u))
	}
	for _, g := range flipGroups(r.Sensitivity) {
		parts := g.flips
		if len(g.steady) > 0 {
			parts = append(parts, fmt.Sprintf("no flip %s: %s", g.rangeText, strings.Join(g.steady, "; ")))
		}
		data.Flips = append(data.Flips, fmt.Sprintf("%s (now %s): %s", g.param, g.now, strings.Join(parts, "; ")))
	}
	var b bytes.Buffer
	_ = planTmpl.Execute(&b, data)
	return b.String()
}

func planRowOf(c plan.Candidate) planRow {
	row := planRow{Rank: "–", Kind: c.Shape(), Name: c.Settings.String(), Own: c.Own, Met: "does not fit", TTFTParts: ttftPartsCell(c)}
	if c.Rank > 0 {
		row.Rank = fmt.Sprint(c.Rank)
	}
	if !c.Fits {
		return row
	}
	row.Met, row.Binding = fmt.Sprintf("%d of %d", passed(c), len(c.SLO)), c.Binding
	row.Tok, row.PerGPU, row.TPOT, row.KV = fmt.Sprintf("%.0f", c.OutputTokPerS), fmt.Sprintf("%.1f", c.PerGPU), textfmt.Seconds(c.TPOTS), fmt.Sprintf("%.1f", c.KVGiB)+queuedText(c)
	if c.Simulated && c.OutputTokPerS <= 0 && c.TPOTS <= 0 {
		// no request measured (candidateFigures): no zeros in the table
		row.Tok, row.PerGPU, row.TPOT = "not measured", "not measured", "not measured"
	}
	for _, v := range c.SLO {
		row.Verdicts = append(row.Verdicts, verdictBadge{Class: verdictClass(v.Verdict), Word: strings.ToUpper(v.Verdict), Headline: planSLOHeadline(v)})
	}
	return row
}

// paretoChart draws every layout's best candidate and the front.
func paretoChart(r *plan.Result) string {
	c := svg.XY{Title: "Throughput per GPU against TPOT", XLabel: "TPOT (ms, log scale)", YLabel: "output tokens/s per GPU", XLog: true, YZero: true}
	front := svg.Series{Name: "Pareto front", Color: seriesColors[0], Dots: true}
	for _, p := range r.Pareto {
		front.Points = append(front.Points, svg.Point{X: p.TPOTS * 1e3, Y: p.PerGPU})
		front.Titles = append(front.Titles, fmt.Sprintf("%s at %d sessions: TPOT %s, %.1f output tokens/s per GPU", p.Settings, p.Sessions, textfmt.Seconds(p.TPOTS), p.PerGPU))
	}
	c.Series = append(c.Series, front)
	for _, p := range r.Points {
		m := svg.Mark{X: p.SteadyTPOTS * 1e3, Y: p.SteadyPerGPU, Color: "#9a9a9a", Title: pointTitle(p)}
		for _, t := range r.Top {
			if t.Settings == p.Settings || sameGroup(t.Settings, p.Settings) {
				m.Color, m.Label = seriesColors[1], fmt.Sprintf("#%d", t.Rank)
				break
			}
		}
		if r.Own != nil && r.Own.Settings == p.Settings {
			m.Ring, m.Label = true, strings.TrimSpace(m.Label+" own")
		}
		c.Marks = append(c.Marks, m)
	}
	return c.SVG()
}

func sameGroup(a, b plan.Settings) bool {
	return a.TP == b.TP && a.PP == b.PP && a.DP == b.DP && a.EP == b.EP && a.Weights == b.Weights && a.KVCacheDType == b.KVCacheDType
}

// pointTitle is a candidate's hover text: settings, figures, verdicts.
func pointTitle(c plan.Candidate) string {
	lines := []string{c.Settings.String(), candidateFigures(c)}
	for _, v := range c.SLO {
		lines = append(lines, strings.ToUpper(v.Verdict)+" "+planSLOHeadline(v))
	}
	return strings.Join(lines, "\n")
}

// ownView is the spec's own settings as the text report words them.
type ownView struct {
	Name  string
	Lines []string
}

func ownViewOf(r *plan.Result) *ownView {
	o := r.Own
	if o == nil {
		return nil
	}
	v := &ownView{Name: o.Settings.String()}
	switch {
	case !o.Fits:
		v.Lines = []string{"do not fit in memory (see vlaunch check)"}
	case o.Rank > 0:
		v.Lines = []string{fmt.Sprintf("rank #%d: %s", o.Rank, candidateFigures(*o))}
	default:
		v.Lines = []string{"not in the list: " + candidateFigures(*o)}
		if l := pdFiguresLine(*o); l != "" {
			v.Lines = append(v.Lines, l)
		}
		for _, x := range o.SLO {
			v.Lines = append(v.Lines, strings.ToUpper(x.Verdict)+" "+planSLOHeadline(x))
		}
	}
	return v
}
