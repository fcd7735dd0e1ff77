package svg

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/internal/golden"
)

// checkGolden compares got with testdata/<name>.golden (go test ./report/svg -update).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

// wellFormed fails unless doc parses as XML from start to end.
func wellFormed(t *testing.T, doc string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, doc)
		}
	}
}

func sampleXY() *XY {
	return &XY{Title: "Throughput <&> \"quoted\"", XLabel: "sessions", YLabel: "tokens/s", XLog: true, XBase: 2, YZero: true,
		Series: []Series{
			{Name: "decode", Color: "#1f77b4", Dots: true, Points: []Point{{32, 400}, {64, 520}, {128, 610}}, Titles: []string{"a", "b", "c"}},
			{Name: "beyond", Color: "#1f77b4", Dash: "5 4", Points: []Point{{128, 610}, {256, 640}}},
		},
		HRefs: []Ref{{Label: "target", Value: 700, Color: "#c62828"}},
		VRefs: []Ref{{Label: "KV capacity", Value: 150, Color: "#555555"}},
		Bands: []Band{{Y: 500, Lo: 40, Hi: 90, Color: "#2ca02c", Title: "band"}},
		Marks: []Mark{{X: 200, Y: 300, Color: "#d62728", Title: "own layout", Label: "own", Ring: true}, {X: 201, Y: 301, Color: "#d62728", Label: "hidden: overlaps"}},
	}
}

func sampleBars() *Bars {
	return &Bars{Title: "Per-GPU memory", YLabel: "GiB", Refs: []Ref{{Label: "device 95 GiB", Value: 95, Color: "#000000"}, {Label: "cap", Value: 85.5, Color: "#c62828"}},
		Bars: []Bar{
			{Label: "stage 0", Segments: []Segment{{Label: "weights", Value: 40, Color: "#08306b", Title: "weights 40"}, {Label: "KV", Value: 30, Color: "#59a14f"}, {Label: "free", Value: 15.5, Outline: true}}},
			{Label: "stage 1", Segments: []Segment{{Label: "weights", Value: 45, Color: "#08306b"}, {Label: "KV", Value: 40.5, Color: "#59a14f"}, {Label: "negative is skipped", Value: -3, Color: "#000000"}}},
		}}
}

// TestGolden pins the output of each chart kind: coordinates, escaping,
// element order. Read the diff (and open the SVG) before accepting one.
func TestGolden(t *testing.T) {
	xy, bars := sampleXY().SVG(), sampleBars().SVG()
	wellFormed(t, xy)
	wellFormed(t, bars)
	checkGolden(t, "xy.svg", xy)
	checkGolden(t, "bars.svg", bars)
	if !strings.Contains(xy, "Throughput &lt;&amp;&gt; &quot;quoted&quot;") {
		t.Error("title not escaped")
	}
	if strings.Contains(xy, "hidden: overlaps") {
		t.Error("an overlapping label was drawn")
	}
	if sampleXY().SVG() != xy {
		t.Error("same chart, different output")
	}
}

// TestDegenerate: charts of nothing, of one point, of NaN and infinities,
// of non-positive values on log axes still produce well-formed SVG.
func TestDegenerate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := map[string]interface{ SVG() string }{
		"empty xy":   &XY{},
		"empty bars": &Bars{},
		"one point":  &XY{Series: []Series{{Points: []Point{{1, 1}}}}},
		"log zeros":  &XY{XLog: true, YLog: true, Series: []Series{{Points: []Point{{0, 0}, {-1, 5}}}}},
		"nan inf":    &XY{Series: []Series{{Points: []Point{{nan, inf}, {1, nan}}}}, HRefs: []Ref{{Value: inf}}},
		"fixed y":    &XY{YFixed: [2]float64{0, 1}, Marks: []Mark{{X: 3, Y: 7}}},
		"bars nan":   &Bars{Bars: []Bar{{Segments: []Segment{{Value: nan}, {Value: inf}}}}},
	}
	for name, c := range cases {
		doc := c.SVG()
		wellFormed(t, doc)
		if strings.Contains(doc, "NaN") || strings.Contains(doc, "Inf") {
			t.Errorf("%s: non-finite number in output", name)
		}
	}
}

func TestScale(t *testing.T) {
	tests := []struct {
		vs     []float64
		log    bool
		zero   bool
		base   float64
		lo, hi float64
		ticks  int
	}{
		{[]float64{3, 97}, false, true, 0, 0, 100, 6},
		{[]float64{0.31, 0.74}, false, false, 0, 0.3, 0.8, 6},
		{[]float64{5, 5}, false, false, 0, 5, 10, 6},
		{[]float64{0.2, 700}, true, false, 0, 0.1, 1000, 5},
		{[]float64{32, 2048}, true, false, 2, 32, 2048, 7},
		{[]float64{1, 1 << 20}, true, false, 2, 1, 1 << 20, 6},
		{nil, false, false, 0, 0, 1, 6},
	}
	for _, tt := range tests {
		s := NewScale(tt.vs, tt.log, tt.zero, tt.base)
		if math.Abs(s.Lo-tt.lo) > 1e-9 || math.Abs(s.Hi-tt.hi) > 1e-9 || len(s.Ticks()) != tt.ticks {
			t.Errorf("NewScale(%v, log %v) = [%g, %g] with %d ticks %v, want [%g, %g] with %d", tt.vs, tt.log, s.Lo, s.Hi, len(s.Ticks()), s.Ticks(), tt.lo, tt.hi, tt.ticks)
		}
	}
}

func TestCompact(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.25: "0.25", 950: "950", 1500: "1.5k", 50000: "50k", 2e6: "2M", -3000: "-3k"} {
		if got := Compact(v); got != want {
			t.Errorf("Compact(%g) = %q, want %q", v, got, want)
		}
	}
}
