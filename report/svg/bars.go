package svg

import "math"

// Bars is a chart of vertical stacked bars over one linear axis from zero,
// with horizontal reference lines across all bars.
type Bars struct {
	Title, YLabel string
	YFormat       func(float64) string
	Bars          []Bar
	Refs          []Ref
}

// Bar is one stacked bar, segments from the bottom up.
type Bar struct {
	Label    string
	Segments []Segment
}

// Segment is one part of a bar. Outline draws it unfilled with a dashed
// border (for what is not in use); Title is its hover text.
type Segment struct {
	Label   string
	Value   float64
	Color   string
	Outline bool
	Title   string
}

// Bars are at most this wide and at least this far apart.
const barMaxW, barGap = 90.0, 24.0

// SVG draws the chart.
func (c *Bars) SVG() string {
	ys := c.scale()
	legend := c.legendItems()
	rows := legendRows(legend, xyW-padL-padR)
	cv := NewCanvas(xyW, xyH+float64(len(rows))*legendRow, c.Title)
	cv.Text(padL, 18, "start", c.Title, `font-size="13" font-weight="bold"`)
	xs := Scale{Lo: 0, Hi: 1, From: padL, To: xyW - padR}
	drawAxes(cv, xs, ys, "", c.YLabel, func(float64) string { return "" }, orCompact(c.YFormat))
	n := float64(max(1, len(c.Bars)))
	slot := (xs.To - xs.From - 140) / n // right-hand 140 units label the reference lines
	w := min(barMaxW, slot-barGap)
	for i, b := range c.Bars {
		x := xs.From + float64(i)*slot + (slot-w)/2
		base := 0.0
		for _, s := range b.Segments {
			if !(s.Value > 0) || math.IsInf(s.Value, 0) {
				continue
			}
			y0, y1 := ys.Pos(base), ys.Pos(base+s.Value)
			st := Style{Fill: s.Color, Stroke: "#ffffff", Width: 0.5}
			if s.Outline {
				st = Style{Fill: "#ffffff", Stroke: "#999999", Width: 1, Dash: "3 2"}
			}
			cv.Rect(x, y1, w, y0-y1, st, s.Title)
			base += s.Value
		}
		cv.Text(x+w/2, ys.From+14, "middle", b.Label, "")
	}
	for _, r := range c.Refs {
		y := ys.Pos(r.Value)
		cv.Line(xs.From, y, xs.To-130, y, Style{Stroke: r.Color, Width: 1.5, Dash: "6 4"})
		cv.Text(xs.To-126, y+4, "start", r.Label, "")
	}
	drawLegend(cv, rows, padL, xyH)
	return cv.String()
}

func (c *Bars) scale() Scale {
	var vs []float64
	for _, b := range c.Bars {
		total := 0.0
		for _, s := range b.Segments {
			if s.Value > 0 && !math.IsInf(s.Value, 0) {
				total += s.Value
			}
		}
		vs = append(vs, total)
	}
	for _, r := range c.Refs {
		vs = append(vs, r.Value)
	}
	ys := NewScale(vs, false, true, 0)
	ys.From, ys.To = xyH-padB, padT
	return ys
}

// legendItems lists every segment label once, in order of appearance.
func (c *Bars) legendItems() []legendItem {
	var out []legendItem
	seen := map[string]bool{}
	for _, b := range c.Bars {
		for _, s := range b.Segments {
			if seen[s.Label] || s.Label == "" || !(s.Value > 0) {
				continue
			}
			seen[s.Label] = true
			col := s.Color
			if s.Outline {
				col = "#ffffff"
			}
			out = append(out, legendItem{Label: s.Label, Color: col, Box: true})
		}
	}
	return out
}
