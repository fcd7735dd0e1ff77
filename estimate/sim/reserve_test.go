package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// A burst larger than the KV pool under SGLang's scheduler: without the
// reserve the prompts fill the pool and their decodes preempt one another;
// with it (Config.ReserveDecodes) admission stops while the pool, less
// the running requests' expected output, cannot hold a prompt and its
// output, so far fewer decodes are preempted (some still are, as in
// SGLang, once the ratio has decayed below what the requests decode),
// fewer requests run at once and the later prompts wait longer for their
// first token. The rule applies only
// to PrefillFirst and only while UseDecodeReserve is on.
func TestReserveDecodesHoldsAdmission(t *testing.T) {
	step := func(l []perf.RankLoad) float64 { return 0.005 + 1e-6*l[0].PrefillTokens + 1e-4*l[0].DecodeSeqs }
	cfg := Config{Step: step, DP: 1, MaxNumSeqs: 1024, MaxNumBatchedTokens: 8192, InputTokens: 200, OutputTokens: 400,
		Sessions: 300, Pool: 300, Seed: 1, Policy: PrefillFirst, BlockSize: 16, KVTokensPerRank: 60000}
	plain := Run(cfg)
	cfg.ReserveDecodes = true
	held := Run(cfg)
	if !(plain.Preemptions > 0) || !(held.Preemptions < plain.Preemptions/2) {
		t.Errorf("preemptions %d without the reserve, %d with it: want some, then under half as many", plain.Preemptions, held.Preemptions)
	}
	if !(held.MeanRunning < plain.MeanRunning) || !(held.TTFT.P99 > plain.TTFT.P99) {
		t.Errorf("with the reserve: running %.0f (without %.0f), TTFT P99 %.2f s (without %.2f): want fewer running, later first tokens",
			held.MeanRunning, plain.MeanRunning, held.TTFT.P99, plain.TTFT.P99)
	}
	for _, c := range []struct {
		name string
		cfg  func(*Config)
	}{
		{"decode-first", func(c *Config) { c.Policy = DecodeFirst }},
		{"switched off", func(*Config) { UseDecodeReserve = false }},
	} {
		a, b := cfg, cfg
		a.ReserveDecodes = false
		c.cfg(&a)
		c.cfg(&b)
		ra, rb := Run(a), Run(b)
		UseDecodeReserve = true
		if ra.TTFT != rb.TTFT || ra.Preemptions != rb.Preemptions {
			t.Errorf("%s: the reserve moved the run (TTFT mean %.3f → %.3f s)", c.name, ra.TTFT.Mean, rb.TTFT.Mean)
		}
	}
}

// new_token_ratio: 0.7 at first, down by (0.7 − 0.098) / 600 a decode
// batch to 0.098; after a retraction, (decoded + 20 × batch) / Σ max_new
// of the batch (the retracted requests at the queue's front among it).
func TestTokenRatio(t *testing.T) {
	var rk simRank
	if rk.ratio() != initTokenRatio {
		t.Fatalf("initial ratio %.3f", rk.ratio())
	}
	for range 300 {
		rk.afterDecodes(0)
	}
	if want := 0.7 - 300*(0.7-0.098)/600; math.Abs(rk.ratio()-want) > 1e-9 {
		t.Errorf("after 300 decode batches %.4f, want %.4f", rk.ratio(), want)
	}
	for range 1000 {
		rk.afterDecodes(0)
	}
	if math.Abs(rk.ratio()-0.098) > 1e-12 {
		t.Errorf("floor %.4f, want 0.098", rk.ratio())
	}
	rk.running = []simReq{{out: 100, output: 1000}, {out: 50, output: 500}}
	rk.waiting = []simReq{{out: 30, output: 500}, {out: 0, output: 100}}
	rk.afterDecodes(1) // the first waiting request was retracted
	if want := float64(100+50+30+20*3) / float64(1000+500+500); math.Abs(rk.ratio()-want) > 1e-12 {
		t.Errorf("after a retraction %.4f, want %.4f", rk.ratio(), want)
	}
	rk.running = []simReq{{out: 990, output: 1000}}
	rk.waiting = nil
	rk.afterDecodes(3) // more retracted than queued: no panic; (990 + 20) / 1000 capped at 1
	if rk.ratio() != 1 {
		t.Errorf("ratio %.4f, want the cap 1", rk.ratio())
	}
}
