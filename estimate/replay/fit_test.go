package replay

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

var (
	runFit  = flag.Bool("fit", false, "fit the global constants on the calibration split (minutes)")
	runLOSO = flag.Bool("loso", true, "with -fit, also refit without each calibration source and write "+LOSOFile)
	// runGlobal=false takes perf.DefaultEfficiency as the global fit (a
	// fit already copied there) and runs only the leave-one-source-out
	// refits from it.
	runGlobal = flag.Bool("global", true, "with -fit, run the global fit (false: perf.DefaultEfficiency is the global fit)")
)

// fitEvals bounds the fit's model evaluations (each reproduces every
// calibration row: about a quarter of a second).
const fitEvals = 1500

// TestCalibrationFit fits the constants of Params on the calibration
// split's targeted figures, starting from perf.DefaultEfficiency, and
// prints them with the fitter's account: the values perf.DefaultEfficiency
// holds come from this run (copied by hand, so a fit is always reviewed).
func TestCalibrationFit(t *testing.T) {
	if !*runFit {
		t.Skip("run with -fit")
	}
	set, cal, keep := calibrationSplit(t)
	e := perf.DefaultEfficiency
	if *runGlobal {
		fitted, o, err := Fit(cal, perf.DefaultEfficiency, keep, fitEvals)
		if err != nil {
			t.Fatal(err)
		}
		e = fitted
		fmt.Printf("worst |log error| %.3f -> %.3f in %d evaluations; refused %v; unreachable %v; at a bound %v\n",
			o.WorstBefore, o.WorstAfter, o.Evals, o.Refused, o.Excluded, o.AtBound)
		for _, p := range Params {
			fmt.Printf("%-26s %.4g\n", p.Name, *p.get(&e))
		}
	}
	if !*runLOSO {
		return
	}
	loso := LOSO{}
	for _, src := range set.Sources {
		if src.Split != published.SplitCalibration {
			continue
		}
		var rest []published.Row
		for _, r := range cal {
			if r.Source != src.ID {
				rest = append(rest, r)
			}
		}
		le, lo, err := Fit(rest, e, keep, losoEvals)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("without %s: worst %.3f\n", src.ID, lo.WorstAfter)
		loso.set(src.ID, le)
	}
	data, err := loso.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(LOSOFile, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// losoEvals bounds each leave-one-source-out refit (it starts from the
// global fit of the same run, so it converges sooner).
const losoEvals = 300

// calibrationSplit is what the global fit and the one-constant fit fit to:
// the published throughput set, its calibration split's targetable rows,
// and the targets the calibration does not exclude.
func calibrationSplit(t *testing.T) (*published.Set, []published.Row, func(Target) bool) {
	t.Helper()
	set, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	var cal []published.Row
	for _, r := range set.Split(published.SplitCalibration) {
		if r.Targetable() {
			cal = append(cal, r)
		}
	}
	return set, cal, func(x Target) bool { _, ex := Excluded(x, x.Engine); return !ex }
}
