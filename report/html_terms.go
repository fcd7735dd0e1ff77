package report

import (
	"bytes"
	"fmt"
	"html/template"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// termsTable is one table of the HTML report's "where the time goes"
// section: a caption, column heads and rows of cells.
type termsTable struct {
	Caption string
	Head    []string
	Rows    [][]string
}

var termsTmpl = template.Must(template.New("terms").Parse(`<h2>Where the time goes</h2>
{{range .}}<table class="terms"><caption>{{.Caption}}</caption>
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}`))

// termsSection is the HTML of the decode step's, the idle prefills' and
// the simulated TTFTs' terms, the same figures the text report prints.
func termsSection(r *estimate.Report) template.HTML {
	tables := stepTermTables(r)
	if len(tables) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := termsTmpl.Execute(&b, tables); err != nil {
		return ""
	}
	return template.HTML(b.String()) // #nosec: every cell was escaped by html/template
}

// stepTermTables builds the tables of termsSection.
func stepTermTables(r *estimate.Report) []termsTable {
	p := r.Performance
	if p == nil || p.Decode.Concurrency == 0 {
		return nil
	}
	ms := func(s float64) string { return fmt.Sprintf("%.2f ms", s*1e3) }
	st, pp := p.Decode.Step, r.Input.PP
	step := termsTable{Caption: fmt.Sprintf("Decode step at %d sessions: %s, bound by %s", p.Decode.Concurrency, ms(st.TotalS), p.Decode.Point.Binding),
		Head: []string{"term", "time", "binding"}}
	for _, t := range stepTermRows(st, pp, true) {
		step.Rows = append(step.Rows, []string{t.name, ms(t.s), t.binding})
	}
	if st.DCPS > 0 {
		step.Rows = append(step.Rows, []string{"network: decode context parallel gathers (in the exposed time)", ms(st.DCPS), st.Bindings.Network.String()})
	}
	f := p.Decode.Floors
	step.Rows = append(step.Rows, []string{fmt.Sprintf("floor: weight read (%.1f GB read per GPU)", f.WeightBytesPerGPU/1e9), ms(f.WeightReadS), ""},
		[]string{"floor: compute", ms(f.ComputeS), ""}, []string{"floor: network", ms(f.NetworkS), ""})
	out := []termsTable{step}
	if len(p.Prefill) > 0 {
		pre := termsTable{Caption: "Prefill on an idle system (TTFT of the engine alone)",
			Head: []string{"prompt tokens", "TTFT", "steps", "GPU kernels", "kernel gaps", "exposed communication", "host", "through the node's NICs", "binding"}}
		pre.Caption = fmt.Sprintf("Prefill on an idle system (TTFT of the engine alone: one DP rank, chunks of %d tokens)", r.Input.MaxNumBatchedTokens)
		for _, pf := range p.Prefill {
			nics := "-"
			if pf.InterBytesPerNode > 0 {
				nics = fmt.Sprintf("%.2f GB", pf.InterBytesPerNode/1e9)
			}
			pre.Rows = append(pre.Rows, []string{fmt.Sprint(pf.InputTokens), textfmt.Seconds(pf.TTFTS), fmt.Sprint(pf.Steps), textfmt.Seconds(pf.GPUS),
				textfmt.Seconds(pf.KernelGapsS), textfmt.Seconds(pf.NetworkS), textfmt.Seconds(pf.HostS) + " (" + prefillHostParts(pf) + ")", nics, pf.Binding})
		}
		out = append(out, pre)
	}
	sims := termsTable{Caption: "Simulated mean TTFT, by where requests spent it",
		Head: []string{"scenario", "mean TTFT", "front end (ingest, first token out)", "of which tokenizing the prompt", "engine queue", "prefill steps"}}
	for _, s := range p.Simulations {
		res := s.Result
		if res.Requests == 0 {
			continue
		}
		tp := res.TTFTParts
		sims.Rows = append(sims.Rows, []string{scenarioLabel(s),
			textfmt.Seconds(res.TTFT.Mean), textfmt.Seconds(tp.FrontendS), textfmt.Seconds(tp.PromptS), textfmt.Seconds(tp.QueueS), textfmt.Seconds(tp.PrefillS)})
	}
	if len(sims.Rows) > 0 {
		out = append(out, sims)
	}
	return out
}
