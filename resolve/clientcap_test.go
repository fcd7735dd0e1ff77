package resolve

import "testing"

// The client's cap with its provenance: the spec's when given (and then
// listed among the settings), none assumed under a rate (vllm bench
// serve's default --max-concurrency None), none derived without a rate.
func TestClientMaxConcurrencyProvenance(t *testing.T) {
	for _, c := range []struct {
		name      string
		rate      float64
		cap, want int
		from      Source
		listed    bool
	}{
		{"closed loop", 0, 0, 0, SourceDerived, false},
		{"open loop, no cap", 4, 0, 0, SourceAssumed, false},
		{"open loop, capped", 4, 64, 64, SourceSpec, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := example(t, "deepseek-v3-32xh20.yaml")
			d.Workload.ArrivalRatePerS, d.Workload.ClientMaxConcurrency = c.rate, c.cap
			r := mustResolve(t, d)
			s := r.ClientMaxConcurrency()
			if s.Value != c.want || s.From != c.from || s.Why == "" {
				t.Errorf("client cap %d from %s (%q), want %d from %s with a why", s.Value, s.From, s.Why, c.want, c.from)
			}
			listed := false
			for _, n := range r.Settings() {
				if n.Name == "client_max_concurrency" {
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
