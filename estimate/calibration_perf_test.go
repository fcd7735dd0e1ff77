package estimate

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// updatePerfCalibration regenerates docs/calibration-throughput.md:
//
//	go test ./estimate -run TestPerfCalibration -update-perf-calibration
var updatePerfCalibration = flag.Bool("update-perf-calibration", false, "rewrite docs/calibration-throughput.md")

var perfFit = flag.Bool("perf-fit", false, "grid-search the efficiency constants against the published rows")

// fitRows are the targeted rows with a cheap predictor: simulated P4 rows
// are replaced by steady decode (their TPOT), the rest are analytic already.
func fitRows() []perfCalRow {
	var out []perfCalRow
	for _, r := range perfCalibrationRows() {
		if r.Excluded != "" || r.Informational || strings.HasSuffix(r.ID, "-out") {
			continue
		}
		if strings.HasPrefix(r.ID, "P4-") {
			var c int
			fmt.Sscanf(r.ID, "P4-c%d-tpot", &c)
			r.predict = calH200TP8.decodeTPOT(c, 1536)
		}
		out = append(out, r)
	}
	return out
}

// TestPerfCalibrationFit searches a coarse grid for the constants that
// minimise the worst |log error| over the targeted rows. Run with
// -perf-fit; the winner is what DefaultEfficiency holds.
func TestPerfCalibrationFit(t *testing.T) {
	if !*perfFit {
		t.Skip("run with -perf-fit")
	}
	rows := fitRows()
	best, bestE := math.Inf(1), Efficiency{}
	for _, g := range []float64{0.45, 0.55, 0.65, 0.75} {
		for _, a := range []float64{0.45, 0.55, 0.65, 0.75} {
			for _, h := range []float64{0.55, 0.6, 0.7, 0.8} {
				for _, l := range []float64{0.55, 0.65, 0.75, 0.85} {
					for _, o := range []float64{2e-3, 3e-3, 4e-3, 5e-3} {
						for _, c := range []float64{5e-6, 15e-6, 30e-6} {
							e := Efficiency{GEMM: g, Attention: a, HBM: h, Link: l, StepOverheadS: o,
								EagerPerLayerS: DefaultEfficiency.EagerPerLayerS, CollectiveS: c}
							worst, sq := 0.0, 0.0
							for _, r := range rows {
								d := math.Abs(math.Log(r.predict(t, e) / r.Published))
								worst = math.Max(worst, d)
								sq += d * d
							}
							if score := worst + sq/100; score < best {
								best, bestE = score, e
							}
						}
					}
				}
			}
		}
	}
	fmt.Printf("best %+v score %.3f\n", bestE, best)
	for _, r := range rows {
		p := r.predict(t, bestE)
		fmt.Printf("%-14s pub %9.1f pred %9.1f err %+6.1f%%\n", r.ID, r.Published, p, 100*(p/r.Published-1))
	}
}

// perfCalTarget is the accepted relative error on every targeted row.
const perfCalTarget = 0.30

// TestPerfCalibration reproduces every usable published row with the
// global DefaultEfficiency and holds the targeted ones to ±30%.
func TestPerfCalibration(t *testing.T) {
	rows := perfCalibrationRows()
	preds := make([]float64, len(rows))
	for i, r := range rows {
		if r.Excluded != "" {
			continue
		}
		preds[i] = r.predict(t, DefaultEfficiency)
		err := preds[i]/r.Published - 1
		if !r.Informational && math.Abs(err) > perfCalTarget {
			t.Errorf("%s: predicted %.1f vs published %.1f %s (%+.0f%%)", r.ID, preds[i], r.Published, r.Unit, 100*err)
		}
	}
	doc := perfCalibrationDoc(rows, preds)
	path := "../docs/calibration-throughput.md"
	if *updatePerfCalibration {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if old, err := os.ReadFile(path); err != nil || string(old) != doc {
		t.Errorf("%s is stale: run go test ./estimate -run TestPerfCalibration -update-perf-calibration", path)
	}
}
