package sim

import "testing"

// TestScaleThroughput: a loop with a priced wave cycle scales output and
// total tokens/s by its Rate (the one function check and the calibration
// replay share); without a cycle, a rate, or with UseWaveCycle off,
// nothing moves.
func TestScaleThroughput(t *testing.T) {
	priced := LoopStates{Rate: 0.8, Cycle: WaveCycle{CycleS: 2}}
	r := Result{OutputTokPerS: 1000, TotalTokPerS: 3000}
	if !priced.ScaleThroughput(&r) || r.OutputTokPerS != 800 || r.TotalTokPerS != 2400 {
		t.Errorf("priced loop: %v, want 800 / 2400 output / total tokens/s", r)
	}
	for name, st := range map[string]LoopStates{"no cycle": {Rate: 0.8}, "no rate": {Cycle: WaveCycle{CycleS: 2}}} {
		r := Result{OutputTokPerS: 1000, TotalTokPerS: 3000}
		if st.ScaleThroughput(&r) || r.OutputTokPerS != 1000 || r.TotalTokPerS != 3000 {
			t.Errorf("%s: %v changed", name, r)
		}
	}
	defer func(old bool) { UseWaveCycle = old }(UseWaveCycle)
	UseWaveCycle = false
	r = Result{OutputTokPerS: 1000, TotalTokPerS: 3000}
	if priced.ScaleThroughput(&r) || r.OutputTokPerS != 1000 {
		t.Errorf("UseWaveCycle off: %v changed", r)
	}
}
