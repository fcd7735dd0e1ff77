package slo

import "testing"

// TestCeilingThroughput: the ceiling is never below the workload's own
// prediction (qa45c F3: 580 / 22 = 26 beside a predicted 35.1), and is
// tp/f when that is higher.
func TestCeilingThroughput(t *testing.T) {
	if got := ceilingThroughput(580, 22, &Verdict{Predicted: 35.1}); got != 35.1 {
		t.Errorf("got %v, want 35.1", got)
	}
	if got := ceilingThroughput(580, 2, &Verdict{Predicted: 35.1}); got != 290 {
		t.Errorf("got %v, want 290", got)
	}
	if got := ceilingThroughput(580, 2, nil); got != 290 {
		t.Errorf("nil verdict: got %v", got)
	}
}
