package slo

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
)

// TestCapRaiseText: under a client cap the throughput advice names the
// cap as the knob (speccap_check.txtar near.yaml: cap 8, 20 requests/s of
// 1,000 / 200 tokens, the steady-decode search at 97 in flight), and says
// when the arrivals alone fall short: 20/s × 200 output tokens = 4,000
// output tokens/s < 5,000 (× 1,200 total tokens = 24,000 ≥ 5,000).
func TestCapRaiseText(t *testing.T) {
	in := &input.Input{}
	in.Workload.ArrivalRatePerS, in.Workload.ClientMaxConcurrency = 20, 8
	in.Workload.InputTokens, in.Workload.OutputTokens = 1000, 200
	got := capRaiseText(in, 8, 97, 5996, 1.084, 0.016, 5000, false)
	for _, want := range []string{"workload.client_max_concurrency: 97 (now 8): ", "at 97 requests in flight (≈5531 tokens/s after prefill interference, steady decode 5996, TPOT 16 ms)",
		"the arrivals at 20.00 requests/s bring at most 4000 output tokens/s", "the cap alone cannot meet 5000"} {
		if !strings.Contains(got, want) {
			t.Errorf("output target: %q lacks %q", got, want)
		}
	}
	if got := capRaiseText(in, 8, 97, 5996, 1.084, 0.016, 5000, true); strings.Contains(got, "arrivals") {
		t.Errorf("total target (24,000 total tokens/s arrive): %q", got)
	}
}
