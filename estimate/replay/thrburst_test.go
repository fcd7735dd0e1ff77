package replay

import (
	"reflect"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/published"
)

// Splitting a burst's throughput into band.ThroughputBurst moves only
// throughput figures: every held-out figure of ThroughputBurst is a burst's
// or an offline batch's and every Throughput figure a steady load's, and
// the bands of every other regime are exactly those built with the burst
// figures folded back into band.Throughput (the table before the split).
func TestThroughputBurstLeavesOtherRegimes(t *testing.T) {
	rows, _ := all(t)
	loso, err := ReadLOSO(LOSOFile)
	if err != nil {
		t.Fatalf("%v (run go test ./estimate/replay -run TestCalibrationFit -fit)", err)
	}
	held := HeldOut(rows, loso)
	burst := func(load string) bool { return load == published.LoadBurst || load == published.LoadOfflineBatch }
	folded := make([]Target, len(held))
	var nBurst, nSteady int
	for i, x := range held {
		switch x.Regime {
		case band.ThroughputBurst:
			nBurst++
			if !burst(x.Load) {
				t.Errorf("%s %s: load %q in %s", x.Row, x.Metric, x.Load, x.Regime)
			}
			x.Regime = band.Throughput
		case band.Throughput:
			nSteady++
			if burst(x.Load) {
				t.Errorf("%s %s: a %s's throughput in %s", x.Row, x.Metric, x.Load, x.Regime)
			}
		}
		folded[i] = x
	}
	if nBurst == 0 || nSteady == 0 {
		t.Fatalf("held-out throughput figures: %d of bursts, %d of steady loads; want both", nBurst, nSteady)
	}
	split, before := Bands(held, HeldOutNotes), Bands(folded, HeldOutNotes)
	for _, b := range before {
		if b.Regime == band.ThroughputBurst {
			t.Fatalf("folded: %s band of %s", b.Regime, b.Class)
		}
		if b.Regime == band.Throughput {
			continue
		}
		if got, ok := find(split, b.Class, b.Regime); !ok || !reflect.DeepEqual(got, b) {
			t.Errorf("%s %s: band changed by the split: %+v, was %+v", b.Class, b.Regime, got, b)
		}
	}
	for _, c := range band.Classes {
		if _, ok := find(split, c, band.ThroughputBurst); !ok {
			t.Errorf("%s: no %s band", c, band.ThroughputBurst)
		}
	}
}
