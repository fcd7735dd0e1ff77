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

// The steps a TTFT spans are counted: a lone 1,000-token prompt under a
// 512-token budget takes two steps, both running its chunks, with no
// queue and no decodes beside them; four such prompts sent together form
// a staircase (each step runs 512 prompt tokens, so the k-th prompt's
// first token comes at step ⌈1000k / 512⌉ − the steps it waited), and
// every prompt's queue and prefill steps add up to the step that gave it
// its first token.
func TestTTFTStepsCounted(t *testing.T) {
	lone := Run(Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 512, InputTokens: 1000, OutputTokens: 2,
		Sessions: 1, Pool: 3})
	if st := lone.TTFTSteps; st.QueueSteps != 0 || st.PrefillSteps != 2 || st.ChunkSteps != 2 || st.ChunkDecodes != 0 {
		t.Errorf("lone prompt: %+v, want no queue, 2 prefill steps, 2 chunks, no decodes", st)
	}
	burst := Run(Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 8, MaxNumBatchedTokens: 512, InputTokens: 1000, OutputTokens: 50,
		Sessions: 4, Pool: 4})
	// First tokens at steps 2, 4, 6, 8 (1,000 tokens each at 512 a step,
	// less the decodes' tokens once some decode): mean 5 steps from t=0,
	// queue + prefill.
	st := burst.TTFTSteps
	if got := st.QueueSteps + st.PrefillSteps; got < 5 || got > 5.5 {
		t.Errorf("burst of 4: queue %.2f + prefill %.2f steps = %.2f, want the staircase's mean of about 5", st.QueueSteps, st.PrefillSteps, got)
	}
	if st.ChunkDecodes <= 0 {
		t.Errorf("burst of 4: %.2f decodes beside the chunks, want the earlier prompts' decodes", st.ChunkDecodes)
	}
	if mean := burst.TTFT.Mean / 0.01; math.Abs(mean-(st.QueueSteps+st.PrefillSteps)) > 1e-6 {
		t.Errorf("burst of 4: mean TTFT %.2f steps, queue + prefill %.2f steps", mean, st.QueueSteps+st.PrefillSteps)
	}
}
