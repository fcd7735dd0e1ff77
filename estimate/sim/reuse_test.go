package sim

import (
	"reflect"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestReusedQueuesGiveTheSameRun runs configurations one after another
// on the queues of the run before (as Replicate's replications do) and
// checks each result equals that of a run on fresh queues: a burst then
// a closed loop with a front end, the load balancer and KV limits tight
// enough to preempt, fewer ranks than the run before, then more.
func TestReusedQueuesGiveTheSameRun(t *testing.T) {
	step := func(l []perf.RankLoad) float64 {
		var ctx, tok float64
		for _, x := range l {
			ctx = max(ctx, x.DecodeCtx+x.PrefillPairs/1000)
			tok = max(tok, x.DecodeSeqs+x.PrefillTokens)
		}
		return 0.004 + 1e-8*ctx + 2e-6*tok
	}
	base := Config{Step: step, DP: 4, MaxNumSeqs: 32, MaxNumBatchedTokens: 2048, InputTokens: 1500, OutputTokens: 300,
		Sessions: 96, Requests: 600, Warmup: 40, Seed: 3, StaggerS: 1, BlockSize: 16}
	burst := base
	burst.Sessions, burst.Pool, burst.StaggerS = 300, 300, 0
	front := base
	front.Frontend = Frontend{RequestS: 0.01, TokenS: 1e-4}
	front.DPLB = DPLB{Clients: 3, IntervalS: DPLBPublishIntervalS}
	front.KVTokensPerRank = 20000 // preempts
	front.Seed = 5
	fewer := front
	fewer.DP, fewer.Seed = 2, 7
	more := base
	more.DP, more.Seed, more.Spread = 8, 9, Spread{Lo: 0.5, Hi: 1.5}
	var buf *simBuffers
	preempted := false
	for i, cfg := range []Config{burst, front, fewer, more, burst} {
		fresh := newSimulator(cfg)
		fresh.run()
		want := fresh.result()
		s := newSimulatorIn(cfg, buf)
		s.run()
		got := s.result()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("run %d on reused queues:\n%+v\nfresh:\n%+v", i, got, want)
		}
		preempted = preempted || got.Preemptions > 0
		buf = s.buffers()
	}
	if !preempted {
		t.Errorf("no run preempted: the test does not exercise requests re-entering the waiting queues")
	}
}
