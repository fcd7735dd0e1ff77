package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestClientPacing: `vllm bench serve` (v0.10.0 on, get_request) sends a
// finite open loop's request k at its drawn share of num_prompts / rate,
// the last at exactly num_prompts / rate, and measures from before the
// first. Hand-derived: 20 requests at 10/s, steps of 1 ms, 2 output
// tokens each and nothing queued (one request every ~0.1 s): the last is
// sent at 2.0 s and finishes two steps later, at 2.002 s; the run is
// measured from 0, so 40 tokens over 2.002 s. Unpaced, the last is sent
// at the sum of 20 drawn gaps and the run measured from the first step.
func TestClientPacing(t *testing.T) {
	cfg := Config{Step: func([]perf.RankLoad) float64 { return 0.001 }, DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20,
		InputTokens: 10, OutputTokens: 2, Pool: 20, ArrivalRatePerS: 10, Seed: 7, ClientPacing: true}
	for _, burst := range []float64{0, 0.5, 4} {
		cfg.Burstiness = burst
		s := newSimulator(cfg)
		if len(s.paced) != 20 || math.Abs(s.paced[19]-2.0) > 1e-12 || !(s.paced[0] > 0) {
			t.Fatalf("burstiness %g: send times %v, want 20 ending at 2.0 s, the first after its gap", burst, s.paced)
		}
		for i := 1; i < len(s.paced); i++ {
			if s.paced[i] < s.paced[i-1] {
				t.Fatalf("burstiness %g: send times out of order: %v", burst, s.paced)
			}
		}
	}
	cfg.Burstiness = 0
	res := Run(cfg)
	if res.Requests != 20 || math.Abs(res.OutputTokPerS-40/2.002) > 1e-6 {
		t.Errorf("paced: %d requests, %.6f tokens/s, want 20 and %.6f (40 tokens over 2.002 s from t = 0)", res.Requests, res.OutputTokPerS, 40/2.002)
	}
	cfg.ClientPacing = false
	if s := newSimulator(cfg); s.paced != nil || s.fromZero {
		t.Error("unpaced run drew its send times up front")
	}
	if res := Run(cfg); math.Abs(res.OutputTokPerS-40/2.002) < 1e-3 {
		t.Errorf("unpaced: %.6f tokens/s, the paced run's", res.OutputTokPerS)
	}
	// a closed loop, or an open one without a pool, is not paced
	cfg.ClientPacing = true
	cfg.Pool = 0
	if s := newSimulator(cfg); s.paced != nil {
		t.Error("an endless open loop was paced")
	}
}
