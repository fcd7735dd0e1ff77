package svg

import "math"

// XY is a chart of lines and points over two axes, with reference lines
// (targets, limits), horizontal bands (prediction intervals) and points
// that show hover text.
type XY struct {
	Title          string
	XLabel, YLabel string
	XLog, YLog     bool
	// XBase is the log base of x ticks (10 when 0; 2 suits concurrency).
	XBase float64
	// YZero starts a linear y axis at zero; YFixed, when its upper end is
	// above its lower, is the y domain whatever the data (a share: 0–1).
	YZero            bool
	YFixed           [2]float64
	XFormat, YFormat func(float64) string
	Series           []Series
	HRefs, VRefs     []Ref
	Bands            []Band
	Marks            []Mark
}

// Series is one line through data points, in x order.
type Series struct {
	Name   string
	Color  string
	Dash   string
	Points []Point
	// Dots marks every data point; Title gives each dot hover text when set.
	Dots   bool
	Titles []string
}

// Ref is a reference line at a data value (a target, a capacity limit).
type Ref struct {
	Label string
	Value float64
	Color string
}

// Band is a horizontal interval at height Y from Lo to Hi (a prediction
// band at one percentile).
type Band struct {
	Y, Lo, Hi float64
	Color     string
	Title     string
}

// Mark is one point with hover text; Ring draws a circle around it
// (the current choice), Label writes text beside it.
type Mark struct {
	X, Y  float64
	Color string
	Title string
	Label string
	Ring  bool
}

// Layout of every XY chart, in user units.
const (
	xyW, xyH                       = 600.0, 300.0
	padL, padR, padT, padB         = 64.0, 24.0, 30.0, 44.0
	legendRow, legendSwatch, charW = 16.0, 18.0, 6.2
)

// SVG draws the chart.
func (c *XY) SVG() string {
	xs, ys := c.scales()
	legend := c.legendItems()
	rows := legendRows(legend, xyW-padL-padR)
	cv := NewCanvas(xyW, xyH+float64(len(rows))*legendRow, c.Title)
	cv.Text(padL, 18, "start", c.Title, `font-size="13" font-weight="bold"`)
	drawAxes(cv, xs, ys, c.XLabel, c.YLabel, orCompact(c.XFormat), orCompact(c.YFormat))
	for _, b := range c.Bands {
		if !ys.Inside(b.Y) {
			continue
		}
		x0, x1 := xs.Pos(b.Lo), xs.Pos(b.Hi)
		cv.Rect(x0, ys.Pos(b.Y)-4, x1-x0, 8, Style{Fill: b.Color, Opacity: 0.3}, b.Title)
	}
	for _, r := range c.HRefs {
		if ys.Inside(r.Value) {
			y := ys.Pos(r.Value)
			cv.Line(xs.From, y, xs.To, y, Style{Stroke: r.Color, Width: 1.5, Dash: "6 4"})
		}
	}
	for _, r := range c.VRefs {
		if xs.Inside(r.Value) {
			x := xs.Pos(r.Value)
			cv.Line(x, ys.From, x, ys.To, Style{Stroke: r.Color, Width: 1.5, Dash: "2 3"})
		}
	}
	for _, s := range c.Series {
		drawSeries(cv, &s, xs, ys)
	}
	for _, m := range c.Marks {
		drawMark(cv, m, xs, ys)
	}
	var labels []Point
	for _, m := range c.Marks { // labels after every dot, so no dot hides one
		labels = drawLabel(cv, m, xs, ys, labels)
	}
	drawLegend(cv, rows, padL, xyH)
	return cv.String()
}

func (c *XY) scales() (Scale, Scale) {
	var xv, yv []float64
	for _, s := range c.Series {
		for _, p := range s.Points {
			xv, yv = append(xv, p.X), append(yv, p.Y)
		}
	}
	for _, m := range c.Marks {
		xv, yv = append(xv, m.X), append(yv, m.Y)
	}
	for _, b := range c.Bands {
		xv, yv = append(xv, b.Lo, b.Hi), append(yv, b.Y)
	}
	for _, r := range c.HRefs {
		yv = append(yv, r.Value)
	}
	for _, r := range c.VRefs {
		xv = append(xv, r.Value)
	}
	xs := NewScale(xv, c.XLog, !c.XLog, c.XBase)
	ys := NewScale(yv, c.YLog, c.YZero, 0)
	if f := c.YFixed; f[1] > f[0] {
		ys = NewScale(f[:], false, false, 0)
	}
	xs.From, xs.To = padL, xyW-padR
	ys.From, ys.To = xyH-padB, padT
	return xs, ys
}

func drawSeries(cv *Canvas, s *Series, xs, ys Scale) {
	var pts []Point
	for _, p := range s.Points {
		if (xs.Log && p.X <= 0) || (ys.Log && p.Y <= 0) {
			continue
		}
		pts = append(pts, Point{xs.Pos(p.X), ys.Pos(p.Y)})
	}
	cv.Polyline(pts, Style{Stroke: s.Color, Width: 2, Dash: s.Dash}, s.Name)
	if !s.Dots {
		return
	}
	for i, p := range pts {
		title := ""
		if i < len(s.Titles) {
			title = s.Titles[i]
		}
		cv.Circle(p.X, p.Y, 3, Style{Fill: s.Color}, title)
	}
}

// drawMark draws one point (ringed when it is the current choice).
func drawMark(cv *Canvas, m Mark, xs, ys Scale) {
	x, y := xs.Pos(m.X), ys.Pos(m.Y)
	if m.Ring {
		cv.Circle(x, y, 8, Style{Stroke: "#000000", Width: 1.5}, "")
	}
	cv.Circle(x, y, 4.5, Style{Fill: m.Color, Stroke: "#ffffff", Width: 1}, m.Title)
}

// drawLabel writes a point's label unless it would overlap one already
// placed (labels holds their anchors); the hover text stays either way.
func drawLabel(cv *Canvas, m Mark, xs, ys Scale, labels []Point) []Point {
	if m.Label == "" {
		return labels
	}
	at := Point{xs.Pos(m.X) + 9, ys.Pos(m.Y) - 6}
	for _, l := range labels {
		if math.Abs(l.X-at.X) < float64(len([]rune(m.Label)))*charW && math.Abs(l.Y-at.Y) < 12 {
			return labels
		}
	}
	cv.Text(at.X, at.Y, "start", m.Label, `font-size="10"`)
	return append(labels, at)
}

func orCompact(f func(float64) string) func(float64) string {
	if f == nil {
		return Compact
	}
	return f
}

// drawAxes draws the frame, grid lines, tick labels and axis titles.
func drawAxes(cv *Canvas, xs, ys Scale, xl, yl string, xf, yf func(float64) string) {
	grid := Style{Stroke: "#e3e3e3", Width: 1}
	for _, v := range xs.Ticks() {
		x := xs.Pos(v)
		cv.Line(x, ys.From, x, ys.To, grid)
		cv.Text(x, ys.From+14, "middle", xf(v), "")
	}
	for _, v := range ys.Ticks() {
		y := ys.Pos(v)
		cv.Line(xs.From, y, xs.To, y, grid)
		cv.Text(xs.From-6, y+4, "end", yf(v), "")
	}
	frame := Style{Stroke: "#555555", Width: 1}
	cv.Line(xs.From, ys.From, xs.To, ys.From, frame)
	cv.Line(xs.From, ys.From, xs.From, ys.To, frame)
	cv.Text((xs.From+xs.To)/2, ys.From+32, "middle", xl, "")
	cv.Text(14, (ys.From+ys.To)/2, "middle", yl, `transform="rotate(-90 14 `+num((ys.From+ys.To)/2)+`)"`)
}
