package report

import (
	"fmt"
	"html/template"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/report/svg"
)

// ttftChart draws the simulated TTFT distribution of every simulated input
// length as a cumulative curve (the share of requests whose first token
// came within x seconds), with the TTFT targets as points at their
// percentile: a curve passing left of a target meets it.
func ttftChart(r *estimate.Report) chartView {
	c := svg.XY{Title: "Simulated TTFT distribution", XLabel: "time to first token (s, log scale)", YLabel: "share of requests",
		XLog: true, YFixed: [2]float64{0, 1}, YFormat: func(v float64) string { return fmt.Sprintf("%.0f%%", v*100) }}
	c.XFormat = func(v float64) string { return svg.Compact(v) }
	for i, s := range r.Performance.Simulations {
		col := seriesColors[i%len(seriesColors)]
		c.Series = append(c.Series, svg.Series{Name: fmt.Sprintf("%d input tokens", s.InputTokens), Color: col, Points: ttftCDF(s.Result)})
		for _, v := range r.SLO {
			ref := classifySLO(v)
			if ref.kind != sloTTFT || ref.inputTokens != s.InputTokens {
				continue
			}
			target, pred := SLOFigures(v)
			c.Marks = append(c.Marks, svg.Mark{X: v.Target, Y: ref.quantile, Color: col, Label: ref.qName,
				Title: fmt.Sprintf("%s %s: target %s, %s", verdictWord(v.Verdict), v.Name, target, predictedWords(v, pred))})
			if b, ok := sloBand(v); ok && b.bounded() { // an open band has no ends to draw; the verdict's text says so
				c.Bands = append(c.Bands, svg.Band{Y: ref.quantile, Lo: b.Low, Hi: b.High, Color: col,
					Title: fmt.Sprintf("%s prediction band %s", v.Name, bandText(b, v.Unit))})
			}
		}
	}
	caption := "Cumulative share of simulated requests by time to first token under the workload's load, per input length; " +
		"dots are the TTFT targets at their percentile (a curve left of its dot meets it)."
	return chartView{Title: c.Title, Caption: caption, SVG: template.HTML(c.SVG())}
}

// ttftCDF is the simulated distribution as points (seconds, share): the
// simulation's quantiles, from the fastest request (share 0) up.
func ttftCDF(res sim.Result) []svg.Point {
	q := res.TTFTQuantiles
	if q[len(q)-1] <= 0 { // no measured request
		return nil
	}
	pts := []svg.Point{{X: q[0], Y: 0}}
	for k, x := range q {
		pts = append(pts, svg.Point{X: x, Y: float64(k+1) / float64(len(q))})
	}
	return pts
}

func verdictWord(v string) string {
	switch verdictClass(v) {
	case "pass":
		return "PASS"
	case "fail":
		return "FAIL"
	}
	return "UNCERTAIN"
}
