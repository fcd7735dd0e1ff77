package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLogNormalKeepsTheMeansAndTheFilter: the drawn lengths average the
// configured means (within sampling error and the pair filter's
// approximation), never leave the client's filter, and have the skew the
// uniform spread lacked (median well under the mean, a tail far over it).
func TestLogNormalKeepsTheMeansAndTheFilter(t *testing.T) {
	for _, c := range []struct{ in, out int }{{232, 220}, {219, 201}, {600, 900}, {50, 30}} {
		d := newLengthDraw(ConversationSpread.Log, c.in, c.out)
		rng := rand.New(rand.NewPCG(1, 2))
		const n = 200000
		var sumIn, sumOut float64
		outs := make([]int, 0, n)
		for range n {
			in, out := d.draw(rng.NormFloat64)
			if in < 4 || out < 4 || in > 1024 || in+out > 2048 {
				t.Fatalf("%v: drew (%d, %d) outside the ShareGPT filter", c, in, out)
			}
			sumIn += float64(in)
			sumOut += float64(out)
			outs = append(outs, out)
		}
		if e := sumIn/n/float64(c.in) - 1; math.Abs(e) > 0.03 {
			t.Errorf("%v: mean input %.1f, %+.1f%% off", c, sumIn/n, 100*e)
		}
		if e := sumOut/n/float64(c.out) - 1; math.Abs(e) > 0.06 {
			t.Errorf("%v: mean output %.1f, %+.1f%% off", c, sumOut/n, 100*e)
		}
		above := 0
		for _, o := range outs {
			if float64(o) > 3*float64(c.out) {
				above++
			}
		}
		if c.out < 300 && above < n/100 {
			t.Errorf("%v: %d of %d outputs over 3× the mean: no tail", c, above, n)
		}
	}
}

// TestLogNormalWithoutRoomDropsTheFilter: means at the filter's edge (a
// client asked for long prompts) are drawn uncut rather than squeezed.
func TestLogNormalWithoutRoomDropsTheFilter(t *testing.T) {
	d := newLengthDraw(ConversationSpread.Log, 4000, 500)
	rng := rand.New(rand.NewPCG(3, 4))
	var sum float64
	for range 50000 {
		in, _ := d.draw(rng.NormFloat64)
		sum += float64(in)
	}
	if m := sum / 50000; math.Abs(m/4000-1) > 0.05 {
		t.Errorf("mean input %.0f for 4,000 requested", m)
	}
}

func TestTruncatedMeanInvertsMu(t *testing.T) {
	for _, m := range []float64{10, 200, 900} {
		mu := lognormalMu(m, 0.8, 4, 2048)
		if got := truncatedMean(mu, 0.8, 4, 2048); math.Abs(got/m-1) > 1e-6 {
			t.Errorf("mean %.0f: μ %.3f gives %.3f", m, mu, got)
		}
	}
}
