// Package svg draws the charts of vlaunch's HTML reports as inline SVG:
// a canvas of a few element kinds, linear and logarithmic axes with
// rounded ticks, an XY chart (lines, reference lines, bands, points with
// hover text) and stacked bars. It knows nothing about vLLM: callers hand
// it numbers and words.
//
// The output is deterministic — coordinates are printed with one decimal,
// elements in the order they are drawn — so charts can be golden-tested,
// and it is self-contained: no script, no font file, no external
// reference, colours inline so a chart looks the same pasted anywhere.
package svg

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Canvas accumulates SVG elements; String closes the document.
type Canvas struct {
	W, H float64
	b    strings.Builder
}

// NewCanvas starts an SVG document of w × h user units whose accessible
// name is title (also shown by browsers as a tooltip on empty areas).
func NewCanvas(w, h float64, title string) *Canvas {
	c := &Canvas{W: w, H: h}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" width="%s" height="%s" role="img" font-family="sans-serif" font-size="11">`,
		num(w), num(h), num(w), num(h))
	fmt.Fprintf(&c.b, "\n<title>%s</title>\n", esc(title))
	c.Rect(0, 0, w, h, Style{Fill: "#ffffff"}, "")
	return c
}

// Style is the paint of one element; empty fields are left out.
type Style struct {
	Fill, Stroke string
	Width        float64 // stroke width
	Dash         string  // stroke-dasharray
	Opacity      float64 // fill-opacity (0 = opaque)
}

func (s Style) attrs() string {
	var b strings.Builder
	fill := s.Fill
	if fill == "" {
		fill = "none"
	}
	fmt.Fprintf(&b, ` fill="%s"`, fill)
	if s.Opacity > 0 {
		fmt.Fprintf(&b, ` fill-opacity="%s"`, num2(s.Opacity))
	}
	if s.Stroke != "" {
		w := s.Width
		if w <= 0 {
			w = 1
		}
		fmt.Fprintf(&b, ` stroke="%s" stroke-width="%s"`, s.Stroke, num2(w))
	}
	if s.Dash != "" {
		fmt.Fprintf(&b, ` stroke-dasharray="%s"`, s.Dash)
	}
	return b.String()
}

// Rect draws a rectangle; a non-empty title becomes its hover text.
func (c *Canvas) Rect(x, y, w, h float64, st Style, title string) {
	c.element("rect", fmt.Sprintf(`x="%s" y="%s" width="%s" height="%s"%s`, num(x), num(y), num(max(w, 0)), num(max(h, 0)), st.attrs()), title)
}

// Line draws a straight line.
func (c *Canvas) Line(x1, y1, x2, y2 float64, st Style) {
	c.element("line", fmt.Sprintf(`x1="%s" y1="%s" x2="%s" y2="%s"%s`, num(x1), num(y1), num(x2), num(y2), st.attrs()), "")
}

// Polyline draws connected segments through pts (x, y pairs).
func (c *Canvas) Polyline(pts []Point, st Style, title string) {
	if len(pts) == 0 {
		return
	}
	var b strings.Builder
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(p.X) + "," + num(p.Y))
	}
	c.element("polyline", fmt.Sprintf(`points="%s"%s`, b.String(), st.attrs()), title)
}

// Circle draws a dot; a non-empty title becomes its hover text.
func (c *Canvas) Circle(x, y, r float64, st Style, title string) {
	c.element("circle", fmt.Sprintf(`cx="%s" cy="%s" r="%s"%s`, num(x), num(y), num(r), st.attrs()), title)
}

// Text writes s at (x, y); anchor is start, middle or end.
func (c *Canvas) Text(x, y float64, anchor, s string, extra string) {
	if extra != "" {
		extra = " " + extra
	}
	fmt.Fprintf(&c.b, `<text x="%s" y="%s" text-anchor="%s"%s>%s</text>`+"\n", num(x), num(y), anchor, extra, esc(s))
}

// element writes one element, with a <title> child when title is set
// (the SVG way to give a shape hover text without script).
func (c *Canvas) element(name, attrs, title string) {
	if title == "" {
		fmt.Fprintf(&c.b, "<%s %s/>\n", name, attrs)
		return
	}
	fmt.Fprintf(&c.b, "<%s %s><title>%s</title></%s>\n", name, attrs, esc(title), name)
}

// String returns the finished document.
func (c *Canvas) String() string { return c.b.String() + "</svg>\n" }

// Point is a position in user units (or, before scaling, in data units).
type Point struct{ X, Y float64 }

// num prints a coordinate with at most one decimal: enough for a screen,
// and stable across platforms for golden files.
func num(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		x = 0
	}
	x = math.Round(x*10) / 10
	if x == 0 {
		x = 0 // no "-0"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

func num2(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64) }

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func esc(s string) string { return escaper.Replace(s) }
