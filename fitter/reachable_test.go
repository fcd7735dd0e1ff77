package fitter

import "testing"

// TestReachableWithinTolerance (qa44c F3): the representability test
// widens the span the constants reach by the fit's tolerance: a TPOT of
// 13.17 ms with the span's low end at 14 ms (6.3% off, under the
// calibrate's 15%) is one the constants can bring within tolerance, so it
// is fitted, not dropped as "something the model does not represent"; one
// 24% off is still dropped, and with no tolerance (the global fit) the span
// is the test, as before.
func TestReachableWithinTolerance(t *testing.T) {
	lo, hi := []float64{14}, []float64{17.56}
	for _, c := range []struct {
		measured, tol float64
		keep          bool
	}{{13.17, 0.15, true}, {11, 0.15, false}, {13.17, 0, false}, {15, 0, true}, {20, 0.15, true}, {21, 0.15, false}} {
		keep, excl := reachable([]Target{{ID: "tpot", Measured: c.measured}}, lo, hi, c.tol)
		if keep[0] != c.keep || (len(excl) == 0) != c.keep {
			t.Errorf("%g vs [14, 17.56] at tolerance %g: kept %v, exclusions %v", c.measured, c.tol, keep[0], excl)
		}
	}
}
