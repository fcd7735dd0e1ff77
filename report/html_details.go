package report

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// detailSection is one section of the HTML report that the text report
// prints as a block of its own: a heading in the text report's words,
// sentences, tables and sentences after them.
type detailSection struct {
	Title  string
	Lines  []string
	List   []string // a bulleted list after the lines (the model's notes)
	Tables []detailTable
	After  []string
}

// detailTable is a termsTable whose Left columns hold words (left-aligned,
// wrapping) rather than figures, with sentences after it.
type detailTable struct {
	Caption string
	Head    []string
	Rows    [][]string
	Left    []int
	After   []string
}

// IsLeft says whether column i holds words.
func (t detailTable) IsLeft(i int) bool { return i > 0 && slices.Contains(t.Left, i) }

var detailTmpl = template.Must(template.New("details").Parse(`{{range .}}<h2>{{.Title}}</h2>
{{range .Lines}}<p class="settings">{{.}}</p>
{{end}}{{if .List}}<ul class="model">{{range .List}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{range $t := .Tables}}<table class="terms">{{if $t.Caption}}<caption>{{$t.Caption}}</caption>{{end}}
{{if $t.Head}}<tr>{{range $i, $h := $t.Head}}<th{{if $t.IsLeft $i}} class="left"{{end}}>{{$h}}</th>{{end}}</tr>
{{end}}{{range $row := $t.Rows}}<tr>{{range $i, $c := $row}}<td{{if $t.IsLeft $i}} class="left"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table>
{{range $t.After}}<p class="settings">{{.}}</p>
{{end}}{{end}}{{range .After}}<p class="settings">{{.}}</p>
{{end}}{{end}}`))

// renderDetails is the HTML of sections, every word escaped by
// html/template.
func renderDetails(secs []detailSection) template.HTML {
	if len(secs) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := detailTmpl.Execute(&b, secs); err != nil {
		return template.HTML(template.HTMLEscapeString("report: " + err.Error()))
	}
	return template.HTML(b.String()) // #nosec: every cell was escaped by html/template
}

// checkDetails are the text report's blocks the charts only draw: the
// layout search, the memory budget, the KV cache, the capacity, the
// weights formats and the performance section, with the figures the text
// prints (the same report fields, the same formatting).
func checkDetails(r *estimate.Report) []detailSection {
	var out []detailSection
	if s := searchSection(r.LayoutSearch); s != nil {
		out = append(out, *s)
	}
	out = append(out, memorySection(r), kvSection(r), capacitySection(r))
	if a := weightsFormatsSection(r); a != nil {
		out = append(out, *a)
	}
	return append(out, perfSections(r)...)
}

func searchSection(s *estimate.LayoutSearch) *detailSection {
	if s == nil {
		return nil
	}
	t := detailTable{Caption: fmt.Sprintf("%d layouts, best first%s", len(s.Candidates), boundedNote(s)),
		Head: []string{"", "TP", "PP", "DP", "EP", "replicas", "all2all", "weights", "KV", "fits", "decode t/s", "served t/s", "SLOs passed"}, Left: []int{6}}
	for i, c := range s.Candidates {
		if i == searchRows {
			t.After = append(t.After, fmt.Sprintf("… %d more (see -o json)", len(s.Candidates)-searchRows))
			break
		}
		mark := ""
		if i == 0 {
			mark = "→"
		}
		t.Rows = append(t.Rows, []string{mark, fmt.Sprint(c.TP), fmt.Sprint(c.PP), fmt.Sprint(c.DP), textfmt.OnOff(c.EP), fmt.Sprint(c.ReplicaCount()),
			orDash(c.All2All), fmt.Sprintf("%.2f GiB", c.WeightsGiB), fmt.Sprintf("%.2f GiB", c.KVCacheGiB), yesNo(c.Fits), tokText(c), servedText(c), passedText(c)})
	}
	return &detailSection{Title: "Layout search (parallelism: auto)", Tables: []detailTable{t},
		After: []string{searchLegend(s), fmt.Sprintf("chosen: %s — the report below is for this layout; to pin it, write %s", s.Chosen.Name(), s.Chosen.PinYAML())}}
}

// nbsp indents a sub-term under its term (leading spaces collapse in HTML).
const nbsp = "\u00a0\u00a0\u00a0\u00a0"

func memorySection(r *estimate.Report) detailSection {
	p, m := r.Memory.PerGPU, r.Memory
	t := detailTable{Caption: "What one GPU holds, in vLLM's budget order", Head: []string{"term", "GiB", "parameters", "dtype", "derivation"}, Left: []int{3, 4}}
	row := func(label string, v float64, params, dtype, detail string) {
		t.Rows = append(t.Rows, []string{label, fmt.Sprintf("%.2f", v), params, dtype, detail})
	}
	row("device total (CUDA runtime)", p.DeviceGiB, "", "", "")
	row(fmt.Sprintf("usable = %.2f × device", p.Utilization), p.UsableGiB, "", "", "")
	row("− weights", p.WeightsGiB, fmt.Sprintf("%.2fB", m.ParamsPerGPU/1e9), "", "")
	for _, w := range m.Weights {
		row(nbsp+w.Component, w.GiB, fmt.Sprintf("%.3fB", w.ParamsPerGPU/1e9), w.DType, w.Placement)
	}
	row("− activation peak", p.ActivationGiB, "", "", r.Memory.ActivationRule())
	for _, a := range m.Activation {
		row(nbsp+a.Name, a.GiB, "", "", a.Formula)
	}
	row("− other (outside PyTorch)", p.OtherGiB, "", "", "")
	for _, o := range m.NonTorch {
		row(nbsp+o.Name, o.GiB, "", "", o.Formula)
	}
	label, gib, detail := kvRow(p)
	row(label, gib, "", "", detail)
	if p.CUDAGraphGiB > 0 {
		t.After = append(t.After, fmt.Sprintf("outside the budget: CUDA graphs ≈%.2f GiB, headroom (1 − utilization) × device = %.2f GiB", p.CUDAGraphGiB, p.HeadroomGiB))
	}
	return detailSection{Title: fmt.Sprintf("Per-GPU memory (GiB%s)", stageSuffix(r)), Tables: []detailTable{t}}
}

func kvSection(r *estimate.Report) detailSection {
	in, m := r.Input, r.Memory
	t := detailTable{Caption: "Bytes, blocks and sequences", Head: []string{"quantity", "value", "derivation"}, Left: []int{2}, Rows: [][]string{
		{"bytes per token", textfmt.Thousands(m.KVBytesPerToken), m.KV.Formula},
		{"blocks × block size", fmt.Sprintf("%s × %d = %s tokens per rank", textfmt.Thousands(m.NumBlocks), m.BlockSize, textfmt.Thousands(m.KVTokensPerRank)), ""},
		{"over every DP rank", fmt.Sprintf("%s over %d DP rank%s", textfmt.Thousands(m.KVTokensTotal), in.DP, plural(in.DP)), ""},
		{fmt.Sprintf("max concurrency at max_model_len %d", in.MaxModelLen), fmt.Sprintf("%.2f sequences per rank", m.MaxConcurrencyAtMaxModelLen), ""},
	}}
	if m.KVTokensLogged > 0 && m.KVTokensLogged != m.KVTokensPerRank {
		t.Rows = append(t.Rows, []string{"GPU KV cache size, as vLLM logs it", textfmt.Thousands(m.KVTokensLogged) + " tokens per rank",
			loggedTokensWhy(m)})
	}
	return detailSection{Title: fmt.Sprintf("KV cache (per GPU%s)", stageSuffix(r)), Tables: []detailTable{t}}
}

func capacitySection(r *estimate.Report) detailSection {
	c := r.Memory.Capacity
	t := detailTable{Caption: fmt.Sprintf("%s of %d tokens (%s)", capacityLoad(c), c.SessionTokens, c.SessionBasis), Head: []string{"quantity", "value"}, Rows: [][]string{
		{"sessions on the fullest rank", fmt.Sprintf("%s over %d DP rank%s%s → %d per rank (ceil)", capacityLoad(c), c.DPRanks, plural(c.DPRanks), replicaRanks(c.Replicas, c.DPRanks), c.SeqsPerRank)},
		{"needed per GPU", fmt.Sprintf("%.2f GiB (%.1f GB)", c.NeededGiBPerRank, c.NeededGiBPerRank*estimate.GiB/1e9)},
		{"needed in total", fmt.Sprintf("%.1f GB", c.NeededGBTotal)},
		{"available per GPU", fmt.Sprintf("%.2f GiB", c.AvailableGiB)},
		{"margin", fmt.Sprintf("%+.2f GiB", c.MarginGiB)},
		{fmt.Sprintf("max sessions of %d tokens", c.SessionTokens), fmt.Sprintf("%d per rank, %d in total", c.MaxSeqsPerRank, c.MaxConcurrency)},
	}}
	if !c.OneSequenceFits {
		t.Rows = append(t.Rows, []string{fmt.Sprintf("one %d-token sequence", c.MaxModelLen), fmt.Sprintf("does not fit: largest max_model_len that fits is %d", c.LargestMaxModelLen)})
	}
	t.Rows = append(t.Rows, []string{"verdict", capacityVerdict(c)})
	return detailSection{Title: "Capacity", Tables: []detailTable{t}}
}

func weightsFormatsSection(r *estimate.Report) *detailSection {
	if len(r.Alternatives) == 0 {
		return nil
	}
	t := detailTable{Caption: "The checkpoint as shipped and converted", Head: []string{"weights", "source", "weights GiB", "KV GiB", "KV tokens/rank", fmt.Sprintf("sessions of %d tokens/rank", r.Memory.Capacity.SessionTokens), "verdict"},
		Left: []int{1}}
	for _, a := range r.Alternatives {
		t.Rows = append(t.Rows, []string{a.WeightsDType, altSource(a), fmt.Sprintf("%.2f", a.WeightsGiB), kvGiBText(a.KVCacheGiB, "%.2f"),
			textfmt.Thousands(a.KVTokensPerRank), fmt.Sprint(a.MaxSeqsPerRank), fitWord(a.Fits)})
	}
	return &detailSection{Title: "Weights formats", Tables: []detailTable{t}}
}

// perfSections is the performance section: the constants, the model's
// assumptions, the decode curve, every simulation and the alternatives
// (the decode step and idle prefills are in "Where the time goes").
func perfSections(r *estimate.Report) []detailSection {
	p := r.Performance
	if p == nil {
		return nil
	}
	if p.Decode.Concurrency == 0 { // no estimate: only say why
		var out []detailSection
		for _, n := range p.Notes {
			out = append(out, detailSection{Title: "Performance: " + n})
		}
		return out
	}
	e := p.Constants
	s := detailSection{Title: "Performance (" + rankHeading(p) + ")", Lines: []string{
		fmt.Sprintf("%s: GEMM bf16 %.2f / fp8 %.2f · fused-MoE GEMM %.2f · attention %.2f · HBM %.2f · links %.2f · kernel gap %s · host per step %s",
			constantsSource(p), e.GEMM, e.GEMMFP8, e.ExpertGEMM, e.Attention, e.HBM, e.Link, textfmt.Seconds(e.KernelGapS), textfmt.Seconds(e.StepOverheadS)),
		fmt.Sprintf("GEMMs %s · attention %s · all2all %s · CUDA graphs %s · DBO %s", p.GEMMPrecision, p.AttentionPrecision, p.All2All, textfmt.OnOff(p.CUDAGraphs), textfmt.OnOff(p.DBO)),
	}}
	for _, n := range p.Notes {
		s.List = append(s.List, "model: "+n)
	}
	s.Tables = append(s.Tables, decodeCurveTable(p))
	for _, sc := range p.Simulations {
		s.Tables = append(s.Tables, simTable(sc))
	}
	if t, ok := alternativesTable(p); ok {
		s.Tables = append(s.Tables, t)
	}
	return []detailSection{s}
}

func decodeCurveTable(p *slo.Performance) detailTable {
	d := p.Decode
	t := detailTable{Caption: fmt.Sprintf("Decode curve: %s; saturates near %d sessions (%s output tokens/s)",
		d.KVFitsText(), d.Saturation.Concurrency, whole(d.Saturation.OutputTokPerS)), Head: []string{"sessions", "TPOT", "output tokens/s", "binding"}, Left: []int{3}}
	for _, c := range d.Curve {
		t.Rows = append(t.Rows, []string{fmt.Sprint(c.Concurrency), fmt.Sprintf("%.1f ms", c.TPOTS*1e3), whole(c.OutputTokPerS),
			c.Binding + map[bool]string{true: " (beyond KV capacity)"}[c.KVCapped]})
	}
	t.After = []string{fmt.Sprintf("decode at %d sessions (%d per rank, mean context %.0f): step %.1f ms → %s output tokens/s [%s]",
		d.Concurrency, d.Point.SeqsPerRank, p.FLOPs.MeanContext, d.Step.TotalS*1e3, whole(d.Point.OutputTokPerS), d.Point.Binding)}
	return t
}

// simTable is one simulated scenario: its percentiles in a table, what
// the text says of the run (cut short, overloaded, spread, throughput)
// after it.
func simTable(s slo.SimScenario) detailTable {
	res := s.Result
	t := detailTable{Caption: fmt.Sprintf("Simulation: %s, %d in / %d out, %s, seed %d", simLoad(s), s.InputTokens, s.OutputTokens, runsText(res), s.Seed),
		Head: []string{"", "mean", "p50", "p90", "p95", "p99"}}
	if s.Lengths != "" {
		t.After = append(t.After, "request lengths: "+s.Lengths)
	}
	if res.Truncated {
		t.After = append(t.After, fmt.Sprintf("cut short: the run reached its work ceiling before it %s; its figures are of its first stretch, not of the whole run", cutBefore(s)))
	}
	pct := func(name string, p sim.Percentiles) []string {
		return []string{name, textfmt.Seconds(p.Mean), textfmt.Seconds(p.P50), textfmt.Seconds(p.P90), textfmt.Seconds(p.P95), textfmt.Seconds(p.P99)}
	}
	switch {
	case res.Overloaded:
		t.After = append(t.After, fmt.Sprintf("overloaded: the deployment sustains about %s requests/s of these (utilisation %.2f); the queue grows without bound, so TTFT and E2E do too",
			textfmt.Rate(s.SustainableRatePerS), s.Utilization))
		if res.Requests > 0 {
			t.Rows = append(t.Rows, pct("TPOT (at saturation)", res.TPOT))
		} else {
			t.After = append(t.After, "no request completed at saturation: TPOT not measured")
		}
	case res.Requests == 0:
		t.After = append(t.After, "no request completed: no latency measured")
	default:
		t.Rows = append(t.Rows, pct("TTFT", res.TTFT), pct("TPOT", res.TPOT), pct("E2E", res.E2E))
		t.After = append(t.After, "mean TTFT: "+ttftPartsText(res.TTFTParts))
		if res.Replications > 1 {
			t.After = append(t.After, fmt.Sprintf("run-to-run spread (95%%, %d runs; not the prediction's accuracy): TTFT p50 %s, p99 %s · TPOT p50 %s, p99 %s", res.Replications,
				ivText(res.TTFTCI.P50), ivText(res.TTFTCI.P99), ivText(res.TPOTCI.P50), ivText(res.TPOTCI.P99)))
		}
	}
	if res.Truncated && res.OutputTokPerS <= 0 { // as the text says it (writeSimText)
		t.After = append(t.After, fmt.Sprintf("throughput and queue lengths not measured (the warm-up had not ended); %d preemptions", res.Preemptions))
		return t
	}
	t.After = append(t.After, fmt.Sprintf("%s output tokens/s, %s total tokens/s; %.1f running, %.1f waiting on average; %d preemptions",
		whole(res.OutputTokPerS), whole(res.TotalTokPerS), res.MeanRunning, res.MeanWaiting, res.Preemptions))
	return t
}

func alternativesTable(p *slo.Performance) (detailTable, bool) {
	if len(p.Alternatives) == 0 {
		return detailTable{}, false
	}
	var lengths []int
	for _, a := range p.Alternatives {
		for _, n := range sortedKeys(a.IdleTTFTS) {
			if !slices.Contains(lengths, n) {
				lengths = append(lengths, n)
			}
		}
	}
	slices.Sort(lengths)
	t := detailTable{Caption: fmt.Sprintf("Alternatives (same models, steady decode at %d sessions; idle TTFT)", p.Decode.Concurrency),
		Head: []string{"alternative", "TPOT", "output tokens/s", "binding"}, Left: []int{3}}
	for _, n := range lengths {
		t.Head = append(t.Head, fmt.Sprintf("TTFT %d", n))
	}
	for _, a := range p.Alternatives {
		if !a.Fits {
			t.Rows = append(t.Rows, []string{a.Name, "does not fit in memory"})
			continue
		}
		row := []string{a.Name, fmt.Sprintf("%.1f ms", a.TPOTS*1e3), fmt.Sprintf("%.0f", a.OutputTokPerS), a.Binding}
		for _, n := range lengths {
			v, ok := a.IdleTTFTS[n]
			row = append(row, map[bool]string{true: textfmt.Seconds(v), false: "-"}[ok])
		}
		t.Rows = append(t.Rows, row)
	}
	return t, true
}

// bandLine is a verdict's band basis as the text report words it.
func bandLine(v slo.Verdict) string {
	if v.BandBasis == "" {
		return ""
	}
	return "band: " + v.BandBasis
}
