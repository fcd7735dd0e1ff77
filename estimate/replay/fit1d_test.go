package replay

import (
	"flag"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/fitter"
	"github.com/vlaunch/vlaunch/published"
)

// fit1DName turns on TestCalibrationFit1D: the one constant to re-fit.
var fit1DName = flag.String("fit1d", "", "re-fit this one constant (a Params name, e.g. measured_compute) with every other fixed, globally and leaving each calibration source out; -loso=false skips writing "+LOSOFile)

// TestCalibrationFit1D re-fits one constant alone (issue #28: a new
// mechanism, the fused-MoE width factor, changed what measured_compute
// should be, while every other constant stayed right): Fit1D on the
// calibration split's non-excluded figures, every other constant at
// perf.DefaultEfficiency, prints the value to copy by hand into
// perf.DefaultEfficiency; then, unless -loso=false, for each calibration
// source it re-fits the same constant without that source, the other
// constants taken from the source's entry in LOSOFile (what the full
// leave-one-source-out fit found without it), and writes only that
// constant back into the entry. Skipped unless -fit1d is given (about a
// minute globally and a minute a source on a free core):
//
//	go test ./estimate/replay -run TestCalibrationFit1D -fit1d measured_compute -v -timeout 60m
func TestCalibrationFit1D(t *testing.T) {
	if *fit1DName == "" {
		t.Skip("run with -fit1d NAME")
	}
	name := *fit1DName
	set, cal, keep := calibrationSplit(t)
	t0 := time.Now()
	e := perf.DefaultEfficiency
	v, f, err := Fit1D(cal, e, keep, name)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s: %.4g -> %.4g (criterion %.4f -> %.4f) on the calibration split, every other constant fixed (%s)\n",
		name, *e.Field(name), v, criterionAt(cal, e, keep, name, *e.Field(name)), f, time.Since(t0).Round(time.Second))
	if !*runLOSO {
		return
	}
	loso, err := ReadLOSO(LOSOFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range set.Sources {
		if src.Split != published.SplitCalibration {
			continue
		}
		le, ok := loso.Efficiency(src.ID)
		if !ok {
			t.Fatalf("%s has no entry for calibration source %s: run the full fit (-fit)", LOSOFile, src.ID)
		}
		var rest []published.Row
		for _, r := range cal {
			if r.Source != src.ID {
				rest = append(rest, r)
			}
		}
		lv, lf, err := Fit1D(rest, le, keep, name)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("without %s: %s %.4g -> %.4g (criterion %.4f)\n", src.ID, name, loso[src.ID][name], lv, lf)
		loso[src.ID][name] = lv
	}
	data, err := loso.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(LOSOFile, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// criterionAt is Fit1D's criterion with name at v, the rest at e.
func criterionAt(rows []published.Row, e perf.Efficiency, keep func(Target) bool, name string, v float64) float64 {
	*e.Field(name) = v
	var m, p []float64
	for _, x := range ReproduceAll(rows, e, keep) {
		m, p = append(m, x.Published), append(p, x.Predicted)
	}
	return fitter.TypicalCriterion(m, p)
}

// TestMinimise1D checks the 1-D search on functions with a known minimum:
// a smooth one, one whose minimum sits in a narrow basin the grid alone
// would miss by a cell, and one minimised at a bound.
func TestMinimise1D(t *testing.T) {
	for _, c := range []struct {
		name   string
		f      func(float64) float64
		lo, hi float64
		want   float64
	}{
		{"parabola", func(x float64) float64 { return (x - 0.5623) * (x - 0.5623) }, 0.4, 1, 0.5623},
		{"kink", func(x float64) float64 { return math.Abs(x-0.7071) + 0.3*math.Abs(x-0.45) }, 0.4, 1, 0.7071},
		{"two basins", func(x float64) float64 {
			return math.Min(math.Abs(x-0.45)+0.05, 3*math.Abs(x-0.8131))
		}, 0.4, 1, 0.8131},
		{"at the upper bound", func(x float64) float64 { return -x }, 0.4, 1, 1},
	} {
		got, _ := minimise1D(c.f, c.lo, c.hi, 31)
		if math.Abs(got-c.want) > 2e-4 {
			t.Errorf("%s: minimum at %.5g, want %.5g", c.name, got, c.want)
		}
	}
	if _, _, err := Fit1D(nil, perf.DefaultEfficiency, nil, "no_such_constant"); err == nil {
		t.Error("Fit1D accepted an unknown constant")
	}
}
