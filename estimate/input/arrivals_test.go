package input

import (
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// The input carries workload.arrival_burstiness to the simulations
// (Workload.Burstiness, which sim.Config.Burstiness takes) and its
// provenance among the settings, as the spec gave it; without it the
// arrivals stay Poisson and the settings are as before.
func TestInputCarriesArrivalBurstiness(t *testing.T) {
	for _, c := range []struct {
		b, want float64
		listed  bool
	}{{0, 1, false}, {100, 100, true}} {
		d, ds := spec.Load("../../examples/deepseek-v3-32xh20.yaml")
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		spec.ApplyDefaults(d)
		d.Workload.ArrivalRatePerS, d.Workload.ArrivalBurstiness = 2, c.b
		in, ds := FromSpec(d)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		if got := in.Workload.Burstiness(); got != c.want {
			t.Errorf("B=%g: the input's burstiness %g, want %g", c.b, got, c.want)
		}
		listed := false
		for _, s := range in.Settings {
			if s.Name == "arrival_burstiness" {
				listed = s.Value == c.want && s.From == resolve.SourceSpec
			}
		}
		if listed != c.listed {
			t.Errorf("B=%g: listed among the input's settings from the spec: %v, want %v (%v)", c.b, listed, c.listed, in.Settings)
		}
	}
}
