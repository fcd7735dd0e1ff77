package svg

// legendItem is one entry of a chart's legend.
type legendItem struct {
	Label, Color, Dash string
	Box                bool // a filled square (bars) rather than a line
}

func (c *XY) legendItems() []legendItem {
	var out []legendItem
	for _, s := range c.Series {
		if s.Name != "" {
			out = append(out, legendItem{Label: s.Name, Color: s.Color, Dash: s.Dash})
		}
	}
	for _, r := range c.HRefs {
		out = append(out, legendItem{Label: r.Label, Color: r.Color, Dash: "6 4"})
	}
	for _, r := range c.VRefs {
		out = append(out, legendItem{Label: r.Label, Color: r.Color, Dash: "2 3"})
	}
	return out
}

// legendRows packs items into rows no wider than width, estimating text
// width from the character count (no font metrics offline; generous).
func legendRows(items []legendItem, width float64) [][]legendItem {
	var rows [][]legendItem
	var row []legendItem
	used := 0.0
	for _, it := range items {
		w := itemWidth(it)
		if len(row) > 0 && used+w > width {
			rows, row, used = append(rows, row), nil, 0
		}
		row = append(row, it)
		used += w
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

func itemWidth(it legendItem) float64 {
	return legendSwatch + 6 + float64(len([]rune(it.Label)))*charW + 14
}

// drawLegend writes the rows from (x, top) downwards.
func drawLegend(cv *Canvas, rows [][]legendItem, x, top float64) {
	for i, row := range rows {
		y := top + float64(i)*legendRow + 8
		cx := x
		for _, it := range row {
			if it.Box {
				cv.Rect(cx, y-8, 12, 10, Style{Fill: it.Color, Stroke: "#888888", Width: 0.5}, "")
			} else {
				cv.Line(cx, y-3, cx+legendSwatch, y-3, Style{Stroke: it.Color, Width: 2, Dash: it.Dash})
			}
			cv.Text(cx+legendSwatch+6, y+1, "start", it.Label, "")
			cx += itemWidth(it)
		}
	}
}
