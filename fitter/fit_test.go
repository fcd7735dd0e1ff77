package fitter

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// stepModel is a small stand-in for the performance model: a per-step
// overhead plus work at a bounded efficiency, measured at several batch
// sizes (time per step) and as a rate (batch / time).
func stepModel(batches []float64) Model {
	return func(x []float64) []float64 {
		overhead, eff := x[0], x[1]
		var out []float64
		for _, b := range batches {
			t := overhead + 1e-3*b/eff
			out = append(out, t, b/t)
		}
		return out
	}
}

func targetsFrom(m Model, truth []float64) []Target {
	var ts []Target
	for i, v := range m(truth) {
		ts = append(ts, Target{ID: string(rune('a' + i)), Measured: v})
	}
	return ts
}

func TestFitRecoversConstants(t *testing.T) {
	m := stepModel([]float64{1, 8, 64})
	params := []Param{{Name: "overhead", Start: 2e-3, Lower: 1e-4, Upper: 0.1}, {Name: "eff", Start: 0.75, Lower: 0.1, Upper: 1}}
	truth := []float64{12e-3, 0.4}
	out, err := Fit(params, targetsFrom(m, truth), m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range truth {
		if math.Abs(out.X[i]/want-1) > 0.01 {
			t.Errorf("%s = %g, want %g", params[i].Name, out.X[i], want)
		}
	}
	if out.WorstAfter > 0.01 || out.WorstBefore < 0.5 {
		t.Errorf("worst error %.3f -> %.3f", out.WorstBefore, out.WorstAfter)
	}
	again, _ := Fit(params, targetsFrom(m, truth), m, Options{})
	if !reflect.DeepEqual(out, again) {
		t.Error("the fit is not deterministic")
	}
}

func TestFitRefusesWhatTheDataCannotConstrain(t *testing.T) {
	base := stepModel([]float64{1, 8, 64})
	// "unused" changes nothing; "twin" adds to the overhead exactly as it
	// does, so no result can tell the two apart.
	m := func(x []float64) []float64 { return base([]float64{x[0] + x[3], x[1]}) }
	params := []Param{{Name: "overhead", Start: 2e-3, Lower: 1e-4, Upper: 0.1}, {Name: "eff", Start: 0.75, Lower: 0.1, Upper: 1},
		{Name: "unused", Start: 1, Lower: 0.5, Upper: 2}, {Name: "twin", Start: 1e-5, Lower: 1e-7, Upper: 1e-2}}
	out, err := Fit(params, targetsFrom(m, []float64{12e-3, 0.4, 1, 1e-5}), m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"unused": "do not depend on it", "twin": "cannot tell it apart"}
	if len(out.Refused) != len(want) {
		t.Fatalf("refused %+v", out.Refused)
	}
	for _, r := range out.Refused {
		if !strings.Contains(r.Reason, want[r.Name]) {
			t.Errorf("%s refused: %q, want %q", r.Name, r.Reason, want[r.Name])
		}
	}
	if out.X[2] != 1 || out.X[3] != 1e-5 {
		t.Errorf("refused constants moved: %v", out.X)
	}
	if out.WorstAfter > 0.01 {
		t.Errorf("worst error after %.3f", out.WorstAfter)
	}
}

func TestFitExcludesUnreachableTargets(t *testing.T) {
	m := stepModel([]float64{1, 8})
	params := []Param{{Name: "overhead", Start: 2e-3, Lower: 1e-4, Upper: 0.1}, {Name: "eff", Start: 0.75, Lower: 0.1, Upper: 1}}
	ts := targetsFrom(m, []float64{5e-3, 0.5})
	ts[0].Measured = 1000 // a step time no constants in the box can give
	out, err := Fit(params, ts, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Excluded) != 1 || out.Excluded[0].ID != ts[0].ID || !strings.Contains(out.Excluded[0].Reason, "does not represent") {
		t.Fatalf("excluded %+v", out.Excluded)
	}
	if out.WorstAfter > 0.01 {
		t.Errorf("the other targets fit to %.3f", out.WorstAfter)
	}
}

func TestFitStaysInBounds(t *testing.T) {
	m := stepModel([]float64{1, 8, 64})
	params := []Param{{Name: "overhead", Start: 2e-3, Lower: 1e-4, Upper: 0.1}, {Name: "eff", Start: 0.75, Lower: 0.5, Upper: 1}}
	out, err := Fit(params, targetsFrom(m, []float64{2e-3, 0.3}), m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.X[1] < 0.5 || !reflect.DeepEqual(out.AtBound, []string{"eff"}) {
		t.Errorf("eff %g, at bound %v: want held at 0.5 and reported", out.X[1], out.AtBound)
	}
}

func TestFitRejectsBadProblems(t *testing.T) {
	m := stepModel([]float64{1})
	for _, c := range []struct {
		params  []Param
		targets []Target
		want    string
	}{
		{[]Param{{Name: "x", Start: 2, Lower: 0.1, Upper: 1}}, []Target{{"a", 1}}, "not within its bounds"},
		{[]Param{{Name: "x", Start: 0.5, Lower: 0, Upper: 1}}, []Target{{"a", 1}}, "not within its bounds"},
		{[]Param{{Name: "x", Start: 0.5, Lower: 0.1, Upper: 1}}, nil, "no measured value"},
		{[]Param{{Name: "x", Start: 0.5, Lower: 0.1, Upper: 1}}, []Target{{"a", math.NaN()}}, "not a positive number"},
	} {
		if _, err := Fit(c.params, c.targets, m, Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// TestFitLeavesAValueToTest: one fitted value can only be matched, so
// only the constant that moves it most is fitted; with three values both
// constants are.
func TestFitLeavesAValueToTest(t *testing.T) {
	params := []Param{{Name: "overhead", Start: 2e-3, Lower: 1e-4, Upper: 0.1}, {Name: "eff", Start: 0.75, Lower: 0.1, Upper: 1}}
	step := stepModel([]float64{4, 64})
	one := func(x []float64) []float64 { return step(x)[:1] }
	out, err := Fit(params, targetsFrom(one, []float64{12e-3, 0.4}), one, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Fitted[0] || out.Fitted[1] || len(out.Refused) != 1 || !strings.Contains(out.Refused[0].Reason, "at most 1 constant") {
		t.Errorf("fitted %v, refused %+v", out.Fitted, out.Refused)
	}
	three := func(x []float64) []float64 { return step(x)[:3] }
	out, err = Fit(params, targetsFrom(three, []float64{12e-3, 0.4}), three, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Fitted[0] || !out.Fitted[1] {
		t.Errorf("three values: fitted %v, refused %+v", out.Fitted, out.Refused)
	}
}

// TestAtBoundAfterRounding: a constant the fit drove to its lower bound
// and rounding left at 1.001e-06 (bound 1e-06) is reported at its bound; one
// well inside its range is not.
func TestAtBoundAfterRounding(t *testing.T) {
	params := []Param{{Name: "eager", Lower: 1e-6, Upper: 5e-3}, {Name: "gemm", Lower: 0.1, Upper: 1}, {Name: "hbm", Lower: 0.1, Upper: 1}}
	got := atBound(params, []bool{true, true, false}, []float64{1.001e-06, 0.3444, 0.1})
	if len(got) != 1 || got[0] != "eager" {
		t.Errorf("atBound = %v, want [eager]", got)
	}
}

// TestNearTwinsAreNotFitted: a constant whose local effect the one chosen
// before it already has, all but a few per cent, is refused for a
// cluster's fit (identifiableShare: moving it along that sliver is how
// three runs overfitted calibrate's constants) and fitted by the global
// fit (share 0), where only the 1% threshold applies.
func TestNearTwinsAreNotFitted(t *testing.T) {
	params := []Param{{Name: "hbm", Start: 0.5, Lower: 0.1, Upper: 1}, {Name: "overhead", Start: 2e-3, Lower: 1e-4, Upper: 3e-3}}
	sens := []sensitivity{{effect: 0.5}, {effect: 0.4}}
	// The overhead moves the three predictions as hbm does, and the third
	// 10% more: about 6% of its effect is its own.
	jac := [][]float64{{1, 1, 1}, {1, 1, 1.1}}
	fitted, refused := chooseParams(params, sens, jac, 0.01, identifiableShare, 2, true)
	if !fitted[0] || fitted[1] || len(refused) != 1 || !strings.Contains(refused[0].Reason, "cannot tell it apart") {
		t.Errorf("cluster fit: fitted %v, refused %+v; want hbm alone", fitted, refused)
	}
	fitted, _ = chooseParams(params, sens, jac, 0.01, 0, 2, false)
	if !fitted[0] || !fitted[1] {
		t.Errorf("global fit (share 0): fitted %v, want both", fitted)
	}
	// A constant with a third of its effect its own is fitted either way.
	jac[1] = []float64{1, 1, 2}
	if fitted, _ = chooseParams(params, sens, jac, 0.01, identifiableShare, 2, true); !fitted[1] {
		t.Errorf("a third of its own: fitted %v, want both", fitted)
	}
}

// TestFitStopsAtTolerance: with a tolerance the fit brings every target
// within it and no further, moving the constants as little as it can. The
// true constants (12 ms, 0.4) miss by 140% at the start; with a tolerance
// of 0.15 the worst error ends at e^0.15 − 1 = 16.2% (not at zero), and
// the constants end nearer their start than the truth.
func TestFitStopsAtTolerance(t *testing.T) {
	m := stepModel([]float64{1, 8, 64})
	params := []Param{{Name: "overhead", Start: 2e-3, Lower: 1e-4, Upper: 0.1}, {Name: "eff", Start: 0.75, Lower: 0.1, Upper: 1}}
	truth := []float64{12e-3, 0.4}
	ts := targetsFrom(m, truth)
	exact, err := Fit(params, ts, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tol, err := Fit(params, ts, m, Options{Tolerance: 0.15})
	if err != nil {
		t.Fatal(err)
	}
	if tol.WorstBefore < 0.5 || math.Abs(tol.WorstAfter-0.15) > 0.01 {
		t.Errorf("worst error %.3f -> %.3f, want it to stop at the tolerance 0.15", tol.WorstBefore, tol.WorstAfter)
	}
	if exact.WorstAfter > 0.01 {
		t.Errorf("without a tolerance the fit reaches %.3f, want ~0", exact.WorstAfter)
	}
	moved := func(x []float64) float64 {
		d := 0.0
		for i, p := range params {
			d += math.Abs(math.Log(x[i] / p.Start))
		}
		return d
	}
	if moved(tol.X) >= moved(exact.X) {
		t.Errorf("with the tolerance the constants moved %.3f (log units), without it %.3f: want less", moved(tol.X), moved(exact.X))
	}
}
