package report

import (
	"math"
	"testing"
)

// An open side of a band (package band: too few sources, or beyond an order
// of magnitude) is left out of its words rather than printed as 0 or +Inf,
// and the chart draws only bounded bands.
func TestBandText(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		b       Band
		want    string
		bounded bool
	}{
		{Band{Low: 0.5, High: 2}, "500 ms–2 s", true},
		{Band{Low: 0.5, High: inf}, "≥ 500 ms", false},
		{Band{Low: 0, High: 2}, "≤ 2 s", false},
		{Band{Low: 0, High: inf}, "unbounded", false},
	} {
		if got := bandText(c.b, "s"); got != c.want || c.b.bounded() != c.bounded {
			t.Errorf("%+v: %q bounded %v, want %q bounded %v", c.b, got, c.b.bounded(), c.want, c.bounded)
		}
	}
}
