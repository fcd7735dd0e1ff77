package report

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/report/svg"
)

// Colours of the P/D charts: the prefill pool in the series blue, the
// decode pool in the series red, the KV hand-off (and the NICs it loads) in
// the memory chart's KV green.
const (
	colorPrefillPool = "#1f77b4"
	colorDecodePool  = "#d62728"
	colorHandoff     = "#59a14f"
)

// ttftPart is one part of a P/D request's mean TTFT as the text report
// names it (scenarioLines' "TTFT parts").
type ttftPart struct {
	label, color string
	value        func(pd.TTFTParts) float64
}

// ttftParts are pd.TTFTParts' terms of Sum in the order a request meets
// them (DecodeAdmit.ReadNoticeS is inside DecodeAdmitS and is not drawn again).
var ttftParts = []ttftPart{
	{"API servers", "#bab0ac", func(p pd.TTFTParts) float64 { return p.FrontendS }},
	{"prefill queue", "#f28e2b", func(p pd.TTFTParts) float64 { return p.PrefillQueueS }},
	{"prefill", colorPrefillPool, func(p pd.TTFTParts) float64 { return p.PrefillS }},
	{"router hops", "#9467bd", func(p pd.TTFTParts) float64 { return p.RouterS }},
	{"KV hand-off", colorHandoff, func(p pd.TTFTParts) float64 { return p.TransferS }},
	{"decode admission", "#ff9da7", func(p pd.TTFTParts) float64 { return p.DecodeAdmitS }},
	{"first decode step", colorDecodePool, func(p pd.TTFTParts) float64 { return p.FirstDecodeS }},
}

// pdCharts are the P/D page's figures: the mean TTFT by part per
// scenario, and the pools' and NICs' utilisation beside what binds.
// None without a scenario (a pool holds no KV block).
func pdCharts(g *pd.Report) []chartView {
	if len(g.Scenarios) == 0 {
		return nil
	}
	return []chartView{pdTTFTChart(g), pdUtilizationChart(g)}
}

// pdBarLabel names a scenario under its bar by its input length.
func pdBarLabel(s *pd.Scenario) string {
	return textfmt.Thousands(int64(s.InputTokens)) + " in"
}

// pdTTFTChart stacks each scenario's mean TTFT from its parts, bottom up in
// the order a request meets them. An unbounded scenario (arrivals above
// what some part serves) has no finite TTFT and gets an empty bar.
func pdTTFTChart(g *pd.Report) chartView {
	c := svg.Bars{Title: "Mean TTFT by part (disaggregated)", YLabel: "seconds"}
	var unbounded []string
	for i := range g.Scenarios {
		s := &g.Scenarios[i]
		b := svg.Bar{Label: pdBarLabel(s)}
		if s.Unbounded {
			b.Label += " (unbounded)"
			unbounded = append(unbounded, pdBarLabel(s))
		} else {
			for _, p := range ttftParts {
				v := p.value(s.TTFTParts)
				b.Segments = append(b.Segments, svg.Segment{Label: p.label, Value: v, Color: p.color,
					Title: fmt.Sprintf("%s tokens in: %s %s of %s mean TTFT", textfmt.Thousands(int64(s.InputTokens)), p.label, textfmt.Seconds(v), textfmt.Seconds(s.TTFTParts.Sum()))})
			}
		}
		c.Bars = append(c.Bars, b)
	}
	caption := "Each simulated input length's mean time to first token, from the router's receipt to the first token out of the decode pool, " +
		"split into the parts a request meets (bottom up); decode admission includes the wait for the step that notices the finished KV read."
	if len(unbounded) > 0 {
		caption += " No bar for " + strings.Join(unbounded, ", ") + ": the arrivals exceed what a part serves, so the queue and TTFT grow without bound."
	}
	return chartView{Title: c.Title, Caption: caption, SVG: template.HTML(c.SVG())}
}

// pdUtilizationChart draws, per scenario, the prefill pool's, the decode
// pool's and the NICs' utilisation (operating rate over capacity) side by
// side, with the line from which a part binds the rate (pd.BindsAt) and
// full capacity; the caption names what binds each scenario.
func pdUtilizationChart(g *pd.Report) chartView {
	c := svg.Bars{Title: "Utilisation by part (disaggregated)", YLabel: "rate ÷ capacity",
		YFormat: func(v float64) string { return fmt.Sprintf("%.0f%%", v*100) },
		Refs: []svg.Ref{
			{Label: fmt.Sprintf("binds at %.0f%%", 100*pd.BindsAt), Value: pd.BindsAt, Color: colorLimit},
			{Label: "capacity", Value: 1, Color: colorTarget},
		}}
	var binds []string
	for i := range g.Scenarios {
		s := &g.Scenarios[i]
		parts := []struct {
			label, color, binding string
			u                     float64
		}{
			{"prefill pool", colorPrefillPool, pd.BindPrefill, s.PrefillUtilization},
			{"decode pool", colorDecodePool, pd.BindDecode, s.DecodeUtilization},
			{"NICs (KV hand-off)", colorHandoff, pd.BindTransfer, s.Transfer.Utilization},
		}
		for k, p := range parts {
			title := fmt.Sprintf("%s tokens in: %s %.0f%% utilised", textfmt.Thousands(int64(s.InputTokens)), p.label, 100*p.u)
			if s.Binding == p.binding {
				title += ", binds the rate"
			}
			b := svg.Bar{Segments: []svg.Segment{{Label: p.label, Value: p.u, Color: p.color, Title: title}}}
			if k == 1 { // the middle bar of the group names the scenario
				b.Label = pdBarLabel(s)
			}
			c.Bars = append(c.Bars, b)
		}
		binds = append(binds, pdBarLabel(s)+": "+boundBy(s))
	}
	caption := "Each part's operating rate over its capacity per simulated input length (prefill pool, decode pool, NICs carrying the KV hand-off); " +
		"a part at the dashed line or above binds the rate. " + strings.Join(binds, "; ") + "."
	return chartView{Title: c.Title, Caption: caption, SVG: template.HTML(c.SVG())}
}
