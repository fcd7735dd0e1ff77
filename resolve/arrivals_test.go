package resolve

import "testing"

// The arrivals' gamma shape with its provenance: the spec's, Poisson
// assumed under a rate without one, none without a rate; listed among the
// settings only when the spec gives it (every other report unchanged).
func TestArrivalBurstinessProvenance(t *testing.T) {
	for _, c := range []struct {
		name       string
		rate, b    float64
		want       float64
		from       Source
		listed     bool
		simulatedB float64 // spec.Workload.Burstiness: what the simulations take
	}{
		{"closed loop", 0, 0, 0, SourceDerived, false, 1},
		{"poisson by default", 4, 0, 1, SourceAssumed, false, 1},
		{"smoother, from the spec", 4, 100, 100, SourceSpec, true, 100},
		{"poisson written out", 4, 1, 1, SourceSpec, true, 1},
		{"burstier, from the spec", 4, 0.5, 0.5, SourceSpec, true, 0.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := example(t, "deepseek-v3-32xh20.yaml")
			d.Workload.ArrivalRatePerS, d.Workload.ArrivalBurstiness = c.rate, c.b
			r := mustResolve(t, d)
			s := r.ArrivalBurstiness()
			if s.Value != c.want || s.From != c.from || (s.From != SourceSpec && s.Why == "") {
				t.Errorf("arrival burstiness %g from %s (%q), want %g from %s with a why", s.Value, s.From, s.Why, c.want, c.from)
			}
			if got := r.Workload.Burstiness(); got != c.simulatedB {
				t.Errorf("simulated burstiness %g, want %g", got, c.simulatedB)
			}
			listed := false
			for _, n := range r.Settings() {
				if n.Name == "arrival_burstiness" {
					listed = true
					if n.Value != c.want || n.From != SourceSpec {
						t.Errorf("listed as %v from %s", n.Value, n.From)
					}
				}
			}
			if listed != c.listed {
				t.Errorf("listed among the settings: %v, want %v", listed, c.listed)
			}
		})
	}
}
