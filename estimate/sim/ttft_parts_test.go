package sim

import (
	"math"
	"testing"
)

// The mean TTFT splits into the front end's share, the engine's queue and
// the prefill steps, and the parts add up to the mean — in one run and
// across replications — for bursts, closed loops and a front end that
// queues requests.
func TestTTFTPartsAddUp(t *testing.T) {
	base := Config{Step: constStep(0.002), DP: 2, MaxNumSeqs: 16, MaxNumBatchedTokens: 512, InputTokens: 1000, OutputTokens: 20,
		Sessions: 40, Requests: 300, Warmup: 20, Seed: 2, Frontend: Frontend{RequestS: 0.003, TokenS: 2e-5}}
	burst := base
	burst.Sessions, burst.Pool, burst.Requests, burst.Warmup = 200, 200, 0, 0
	for name, res := range map[string]Result{"closed loop": Run(base), "burst": Run(burst), "replicated": Replicate(base, 4)} {
		p := res.TTFTParts
		if sum := p.FrontendS + p.QueueS + p.PrefillS; math.Abs(sum-res.TTFT.Mean) > 1e-9*max(1, res.TTFT.Mean) {
			t.Errorf("%s: front end %.4f + queue %.4f + prefill %.4f = %.6f s, mean TTFT %.6f s", name, p.FrontendS, p.QueueS, p.PrefillS, sum, res.TTFT.Mean)
		}
		if p.FrontendS <= 0 || p.PrefillS <= 0 || p.QueueS < 0 {
			t.Errorf("%s: parts %+v, want a front end, a prefill and no negative queue", name, p)
		}
	}
	// A burst larger than max_num_seqs × DP, handed over at once, waits in
	// the engine's queue.
	burst.Frontend = Frontend{}
	if q := Run(burst).TTFTParts.QueueS; q < 0.01 {
		t.Errorf("burst of 200 on 32 sequence slots: queue %.4f s, want the wait for slots", q)
	}
}
