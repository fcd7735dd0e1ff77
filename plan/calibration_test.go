package plan

import (
	"path/filepath"
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
)

// TestCandidatesUseCalibration: every candidate predicts with the
// deployment's calibration (plan --calibration, or the spec's), and it
// moves the figures: a slower per-step overhead lowers every bound.
func TestCandidatesUseCalibration(t *testing.T) {
	d, _, _ := example(t, "llama-3.1-70b-8xa100")
	cal, err := resolve.LoadCalibration(filepath.Join("..", "validate", "testdata", "calibration", "good.yaml"), "good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	slots := slotsOf(d)
	boundsOf := func(d *resolve.Deployment) map[string]float64 {
		out := map[string]float64{}
		for _, e := range distinct(d, specSettings(d), NewSpace(d).Enumerate(d), &Stats{}) {
			if e.in.Calibration.Source != d.Calibration.Source {
				t.Fatalf("%s predicts with %q, the deployment with %q", e.Settings, e.in.Calibration.Source, d.Calibration.Source)
			}
			tok, _, _, _, _ := boundOf(&e.in, slots, 1<<40)
			out[e.Settings.String()] = tok
		}
		return out
	}
	global := boundsOf(d)
	c := *d
	c.Calibration = cal
	calibrated := boundsOf(&c)
	moved := 0
	for k, v := range calibrated {
		if v != global[k] {
			moved++
		}
	}
	if moved == 0 {
		t.Errorf("the calibration moved none of %d candidates' bounds", len(calibrated))
	}
	if got := Plan(&c, Options{Seed: 1, Top: 1}).Calibration; got != cal.Describe() {
		t.Errorf("the plan names %q, want %q", got, cal.Describe())
	}
}
