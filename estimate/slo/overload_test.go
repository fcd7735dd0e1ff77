package slo

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestOverloadedOpenLoop: arrivals above what the deployment sustains are
// reported as such, with the sustainable rate, without simulating a
// queue that never stops growing; below it, the run is simulated.
func TestOverloadedOpenLoop(t *testing.T) {
	in := perfRefInput(t, "fp8")
	sm := perf.NewStepModel(perf.SetupFromInput(&in))
	in.Workload.ArrivalRatePerS = 1000
	over := simulateScenario(&in, sm, 500000, 512, Options{Seed: 1})
	if !over.Result.Overloaded || over.Utilization < 1 || over.SustainableRatePerS <= 0 || over.Result.TTFT.P99 != 0 {
		t.Fatalf("1000/s: %+v", over)
	}
	in.Workload.ArrivalRatePerS = over.SustainableRatePerS / 2
	under := simulateScenario(&in, sm, 500000, 512, Options{Seed: 1})
	if under.Result.Overloaded || under.Utilization > 0.6 || under.Result.TTFT.P99 <= 0 {
		t.Fatalf("half the sustainable rate: %+v", under)
	}
	v := ttftVerdict(&in, sm, &Performance{Simulations: []SimScenario{over}}, 500000, 512, "p99", 1.5, nil)
	if v.Verdict != VerdictFail || !v.Unbounded {
		t.Fatalf("verdict %+v", v)
	}
}
