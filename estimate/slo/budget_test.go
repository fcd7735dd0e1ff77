package slo

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/sim"
)

// TestStarvedScenarioFloors: a scenario with a full budget warms up two
// requests per simulated session (at least 100) and runs the full capacity
// run; one that shares three scenarios' work with more (a smaller
// workBudget) warms up and measures capacity in proportion, down to their
// floors; a ranking run's MaxWarmup caps the warm-up.
func TestStarvedScenarioFloors(t *testing.T) {
	full := Options{workBudget: sim.StepBudget}
	quarter := Options{workBudget: sim.StepBudget / 4}
	for _, tc := range []struct {
		name     string
		sessions int
		opt      Options
		want     int
	}{
		{"full budget", 200, full, 400},
		{"full budget, few sessions", 10, full, 100},
		{"full budget, capped sessions", 1000000, full, 2 * sim.MaxSimSessions},
		{"quarter", 200, quarter, 100},
		{"quarter, floor", 20, quarter, 50},
		{"ranking cap", 20000, Options{workBudget: sim.StepBudget, MaxWarmup: 500}, 500},
	} {
		if got := warmupFor(tc.sessions, tc.opt); got != tc.want {
			t.Errorf("%s: warm-up %d, want %d", tc.name, got, tc.want)
		}
	}
	cfg := sim.Config{Sessions: 10, MaxNumSeqs: 64, MaxNumBatchedTokens: 8192, InputTokens: 1000, OutputTokens: 100}
	whole := sim.Saturated(cfg, 4)
	if got := saturatedFor(cfg, 4, full); got.Requests != whole.Requests {
		t.Errorf("full budget: capacity run of %d requests, want sim.Saturated's %d", got.Requests, whole.Requests)
	}
	if got := saturatedFor(cfg, 4, quarter); got.Requests != whole.Requests/4 {
		t.Errorf("quarter budget: capacity run of %d requests, want %d", got.Requests, whole.Requests/4)
	}
	if got := saturatedFor(cfg, 4, Options{workBudget: 1}); got.Requests != capacityRequestsMin {
		t.Errorf("starved: capacity run of %d requests, want the floor %d", got.Requests, capacityRequestsMin)
	}
}
