package report

import (
	"fmt"
	"html/template"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/report/svg"
)

// Line colours, in series order; every chart uses them the same way.
var seriesColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"}

const (
	colorTarget = "#c62828"
	colorLimit  = "#555555"
)

// checkCharts is every chart the check report can draw for r.
func checkCharts(r *estimate.Report) []chartView {
	var out []chartView
	if len(r.Memory.Stages) > 0 {
		out = append(out, memoryChart(r))
	}
	p := r.Performance
	if p == nil || p.Decode.Concurrency == 0 {
		return out
	}
	out = append(out, throughputChart(r), tpotChart(r))
	if len(p.Simulations) > 0 {
		out = append(out, ttftChart(r))
	}
	return out
}

// decodeSeries splits the steady-decode curve into the part within KV
// capacity and the part beyond it (drawn dashed: vLLM would queue or
// preempt there).
func decodeSeries(d perf.DecodeInfo, name string, y func(perf.DecodePoint) float64, unit string) []svg.Series {
	in := svg.Series{Name: name, Color: seriesColors[0], Dots: true}
	out := svg.Series{Name: "beyond KV capacity", Color: seriesColors[0], Dash: "5 4", Dots: true}
	for i, c := range d.Curve {
		pt := svg.Point{X: float64(c.Concurrency), Y: y(c)}
		title := fmt.Sprintf("%d sessions: %.1f %s [%s]", c.Concurrency, pt.Y, unit, c.Binding)
		if c.KVCapped {
			if len(out.Points) == 0 && i > 0 { // join the dashed part to the last point within capacity
				prev := d.Curve[i-1]
				out.Points, out.Titles = append(out.Points, svg.Point{X: float64(prev.Concurrency), Y: y(prev)}), append(out.Titles, "")
			}
			out.Points, out.Titles = append(out.Points, pt), append(out.Titles, title+" — beyond KV capacity")
			continue
		}
		in.Points, in.Titles = append(in.Points, pt), append(in.Titles, title)
	}
	if len(out.Points) == 0 {
		return []svg.Series{in}
	}
	return []svg.Series{in, out}
}

// decodeLimits are the vertical lines of the concurrency charts: the
// workload's sessions and the KV capacity at the workload's mean context.
func decodeLimits(r *estimate.Report) []svg.Ref {
	d := r.Performance.Decode
	refs := []svg.Ref{{Label: fmt.Sprintf("workload: %d sessions", d.Concurrency), Value: float64(d.Concurrency), Color: seriesColors[2]}}
	if d.KVSeqsPerRank > 0 {
		kv := d.KVSeqsPerRank * r.Input.DP
		refs = append(refs, svg.Ref{Label: fmt.Sprintf("KV capacity: %d sessions", kv), Value: float64(kv), Color: colorLimit})
	}
	return refs
}

func throughputChart(r *estimate.Report) chartView {
	d := r.Performance.Decode
	c := svg.XY{Title: "Throughput against concurrency", XLabel: "concurrent sessions", YLabel: "output tokens/s",
		XLog: true, XBase: 2, YZero: true, VRefs: decodeLimits(r), XFormat: wholeNumber}
	c.Series = decodeSeries(d, "steady decode", func(p perf.DecodePoint) float64 { return p.OutputTokPerS }, "output tokens/s")
	caption := "Steady decoding (no new prompts) from the step model, per deployment."
	if t, ok := findSLO(r.SLO, sloThroughput); ok {
		c.HRefs = append(c.HRefs, svg.Ref{Label: "target " + throughputTargetLabel(t.v), Value: t.outputTarget(r), Color: colorTarget})
	}
	logIfFarApart(&c)
	if s := workloadSim(r); s != nil {
		c.Marks = append(c.Marks, svg.Mark{X: float64(max(1, s.Sessions)), Y: s.Result.OutputTokPerS, Color: seriesColors[1],
			Title: fmt.Sprintf("simulated with prefills: %s output tokens/s", whole(s.Result.OutputTokPerS)), Label: "simulated"})
		caption += " The red dot is the simulation at the workload's load, prefills of new requests included."
	}
	return chartView{Title: c.Title, Caption: caption, SVG: template.HTML(c.SVG())}
}

func tpotChart(r *estimate.Report) chartView {
	d := r.Performance.Decode
	c := svg.XY{Title: "Time per output token against concurrency", XLabel: "concurrent sessions", YLabel: "TPOT (ms)",
		XLog: true, XBase: 2, YZero: true, VRefs: decodeLimits(r), XFormat: wholeNumber}
	c.Series = decodeSeries(d, "steady decode", func(p perf.DecodePoint) float64 { return p.TPOTS * 1e3 }, "ms")
	if t, ok := findSLO(r.SLO, sloTPOT); ok {
		c.HRefs = append(c.HRefs, svg.Ref{Label: "target " + textfmt.Seconds(t.v.Target), Value: t.v.Target * 1e3, Color: colorTarget})
	}
	logIfFarApart(&c)
	if s := workloadSim(r); s != nil && s.Result.Requests > 0 {
		c.Marks = append(c.Marks, svg.Mark{X: float64(max(1, s.Sessions)), Y: s.Result.TPOT.Mean * 1e3, Color: seriesColors[1],
			Title: "simulated mean TPOT: " + textfmt.Seconds(s.Result.TPOT.Mean), Label: "simulated"})
	}
	return chartView{Title: c.Title, Caption: "Steady decode step per output token; the red dot is the simulated mean at the workload's load.",
		SVG: template.HTML(c.SVG())}
}

// workloadSim is the simulation of the workload's own input length.
func workloadSim(r *estimate.Report) *slo.SimScenario {
	if len(r.Performance.Simulations) == 0 {
		return nil
	}
	return &r.Performance.Simulations[0]
}

// farApart is the ratio between the largest and smallest positive y values
// (data, targets) beyond which a linear axis would flatten one of them to
// a line at the bottom, and the chart switches to a log y axis.
const farApart = 20

func logIfFarApart(c *svg.XY) {
	lo, hi := 0.0, 0.0
	see := func(v float64) {
		if v > 0 && (lo == 0 || v < lo) {
			lo = v
		}
		hi = max(hi, v)
	}
	for _, s := range c.Series {
		for _, p := range s.Points {
			see(p.Y)
		}
	}
	for _, r := range c.HRefs {
		see(r.Value)
	}
	if lo > 0 && hi/lo > farApart {
		c.YLog, c.YZero = true, false
		c.YLabel += " (log scale)"
	}
}

// wholeNumber labels concurrency ticks (powers of two) exactly.
func wholeNumber(v float64) string { return fmt.Sprintf("%.0f", v) }
