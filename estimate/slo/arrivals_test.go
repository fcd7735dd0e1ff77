package slo

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// workload.arrival_burstiness reaches the colocated simulation
// (sim.Config.Burstiness): 1 written out is the Poisson run bit for bit
// (as is leaving it out), a smoother stream (B = 100) at the same rate
// waits less for the first token and a burstier one (B = 0.5) more, and
// the scenario names the process only when it is not Poisson.
func TestArrivalBurstinessColocated(t *testing.T) {
	in := perfRefInput(t, "fp8")
	sm := perf.NewStepModel(perf.SetupFromInput(&in))
	in.Workload.ArrivalRatePerS = 1000
	capacity := simulateScenario(&in, sm, 500000, 2048, Options{Seed: 1}).SustainableRatePerS
	in.Workload.ArrivalRatePerS = 0.3 * capacity // a steady queue: 13 running on average
	run := func(b float64) SimScenario {
		v := in
		v.Workload.ArrivalBurstiness = b
		return simulateScenario(&v, sm, 500000, 2048, Options{Seed: 1})
	}
	poisson := run(0)
	if one := run(1); !reflect.DeepEqual(one, poisson) {
		t.Errorf("burstiness 1 changed the run:\n%+v\n%+v", one, poisson)
	}
	if poisson.Burstiness != 0 || poisson.Result.Overloaded {
		t.Fatalf("Poisson scenario: burstiness %g, overloaded %v", poisson.Burstiness, poisson.Result.Overloaded)
	}
	smooth, bursty := run(100), run(0.5)
	t.Logf("TTFT mean: B=0.5 %.1f ms, Poisson %.1f ms, B=100 %.1f ms", 1e3*bursty.Result.TTFT.Mean, 1e3*poisson.Result.TTFT.Mean, 1e3*smooth.Result.TTFT.Mean)
	q := func(s SimScenario) float64 { return s.Result.TTFTParts.QueueS }
	if !(q(smooth) < q(poisson) && q(poisson) < q(bursty)) {
		t.Errorf("engine queue %.4f / %.4f / %.4f s at B = 100 / 1 / 0.5: want it rising", q(smooth), q(poisson), q(bursty))
	}
	if !(smooth.Result.TTFT.Mean < poisson.Result.TTFT.Mean && poisson.Result.TTFT.Mean < bursty.Result.TTFT.Mean) {
		t.Errorf("TTFT mean %.4f / %.4f / %.4f s at B = 100 / 1 / 0.5: want it rising", smooth.Result.TTFT.Mean, poisson.Result.TTFT.Mean, bursty.Result.TTFT.Mean)
	}
	if smooth.Burstiness != 100 || bursty.Burstiness != 0.5 {
		t.Errorf("scenario burstiness %g and %g, want 100 and 0.5", smooth.Burstiness, bursty.Burstiness)
	}
	for _, c := range []struct {
		b    float64
		want string
	}{{0, "Poisson arrivals at 4.00/s"}, {1, "Poisson arrivals at 4.00/s"}, {100, "gamma arrivals at 4.00/s (burstiness 100: gaps' CV 0.1, smoother than Poisson)"},
		{0.25, "gamma arrivals at 4.00/s (burstiness 0.25: gaps' CV 2, burstier than Poisson)"}} {
		if got := ArrivalsText(4, c.b, "/s"); got != c.want {
			t.Errorf("ArrivalsText(4, %g) = %q, want %q", c.b, got, c.want)
		}
	}
	v := in
	v.Workload.ArrivalBurstiness = 100
	if got := loadText(&v); !strings.HasPrefix(got, "gamma arrivals at") {
		t.Errorf("loadText with B = 100: %q", got)
	}
}
