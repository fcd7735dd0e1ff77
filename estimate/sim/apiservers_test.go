package sim

import (
	"math"
	"slices"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// Several API-server processes ingest requests side by side, but each
// request is ingested whole by one of them (UseAPIServerLatency): its
// ingest takes its whole cost, not the cost over the processes.
//
// Hand-derived: a request's ingest costs 40 ms, spread over 4 processes
// (RequestS 10 ms, the share the callers pass); steps take 1 ms. Two
// requests arrive at 0. With the switch, the first is ready at 10 + 30 =
// 40 ms (its share in the shared queue, then the rest of its own process's
// work: 3 × 10 ms) and its first token ends the step [40, 41] ms; the
// second's share ends at 20 ms, it is ready at 20 + 30 = 50 ms (the first
// request's decode step, [41, 42] ms, has ended) and its first token ends
// [50, 51] ms: TTFTs 41 and 51 ms, front-end parts 40 and 50 ms. Without,
// they are ready at their shares' ends, 10 and 20 ms; the first one's token
// (step [10, 11] ms) is delivered only when the front end has done the
// work queued before it, the second's ingest, at 20 ms (front end 10 + 9
// ms), and the second's token ends [20, 21] ms: TTFTs 20 and 21 ms, front-end
// parts 19 and 20 ms. On one process (Servers 1) the switch changes nothing.
func TestAPIServerLatency(t *testing.T) {
	defer func(v bool) { UseAPIServerLatency = v }(UseAPIServerLatency)
	cases := []struct {
		on          bool
		servers     int
		ttft, front []float64
	}{
		{true, 4, []float64{0.041, 0.051}, []float64{0.040, 0.050}},
		{false, 4, []float64{0.020, 0.021}, []float64{0.019, 0.020}},
		{true, 1, []float64{0.020, 0.021}, []float64{0.019, 0.020}},
	}
	for _, c := range cases {
		UseAPIServerLatency = c.on
		s := newSimulator(Config{Step: func([]perf.RankLoad) float64 { return 0.001 }, DP: 1, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20,
			InputTokens: 100, OutputTokens: 2, Sessions: 1, Pool: 2, Frontend: Frontend{RequestS: 0.010, Servers: c.servers}})
		s.pend(simReq{arrival: 0, session: -1, prompt: 100, input: 100, output: 2})
		s.sent++ // the pool's: session 0 sends no other
		s.run()
		if len(s.measured) != 2 {
			t.Fatalf("on %v, %d servers: %d requests measured, want 2", c.on, c.servers, len(s.measured))
		}
		var ttft, front []float64
		for _, r := range s.measured {
			ttft, front = append(ttft, r.ttft), append(front, r.frontend)
		}
		slices.Sort(ttft)
		slices.Sort(front)
		for i := range ttft {
			if math.Abs(ttft[i]-c.ttft[i]) > 1e-9 || math.Abs(front[i]-c.front[i]) > 1e-9 {
				t.Errorf("on %v, %d servers: request %d TTFT %.4f s, front end %.4f s, want %.4f and %.4f s",
					c.on, c.servers, i, ttft[i], front[i], c.ttft[i], c.front[i])
			}
		}
	}
}
