package search

import "testing"

// A layout whose KV cache does not hold every session at once fits (EST103
// is a warning: vLLM queues the rest), but between layouts the SLOs do not
// separate it ranks below one that holds them all, whatever its steady
// decode at every session (which it never runs); the SLOs still come first.
func TestQueueingLayoutRanksBelowHoldingOne(t *testing.T) {
	holds := Candidate{TP: 8, Fits: true, Feasible: true, MaxConcurrency: 256, DecodeTokPerS: 1000}
	queues := Candidate{TP: 4, Fits: true, Queues: true, Feasible: true, MaxConcurrency: 100, DecodeTokPerS: 2000}
	if !better(holds, queues) || better(queues, holds) {
		t.Errorf("a layout that queues ranked at or above one that holds every session (same SLOs)")
	}
	queues.SLOPassed, queues.SLOTotal, holds.SLOTotal, holds.Feasible = 1, 1, 1, false
	if !better(queues, holds) {
		t.Errorf("a layout that queues but passes its SLO ranked below one that fails it")
	}
	other := queues
	other.MaxConcurrency, other.DecodeTokPerS = 150, 1500
	if !better(other, queues) {
		t.Errorf("between two that queue, the one holding more sessions at once comes first")
	}
}
