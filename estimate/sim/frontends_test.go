package sim

import (
	"math"
	"slices"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestPerRankFrontEnds: behind a router each DP rank's API server ingests
// only the requests routed to it (Frontend.PerRank).
//
// Hand-derived: 8 requests arrive at 0 on 4 ranks, round_robin sends
// them to ranks 0, 1, 2, 3, 0, 1, 2, 3; an ingest costs 10 ms on one
// process; steps take 1 ms and an output costs the front end nothing, but
// is delivered only after the ingest work queued before it (a burst's
// ingests hold the first tokens). Per rank, each front end ingests its two
// requests by 10 and 20 ms; the first one's token (prefill step [10, 11]
// ms) waits for the second's ingest, to 20 ms: front-end parts 10 + 9 =
// 19 ms × 4 and 20 ms × 4. One front end for all (PerRank off) ingests
// them one after another, by 10, 20, ..., 80 ms, and holds every token
// until 80 ms: 79 ms × 7 and 80 ms. Independent ranks (a dense model's)
// step on their own clocks to the same times. Without a router PerRank
// changes nothing.
func TestPerRankFrontEnds(t *testing.T) {
	ms := func(v ...float64) []float64 {
		for i := range v {
			v[i] /= 1000
		}
		return v
	}
	cases := []struct {
		name        string
		router      Router
		perRank     bool
		independent bool
		want        []float64
	}{
		{"per rank", VLLMRouter(RouteRoundRobin), true, false, ms(19, 19, 19, 19, 20, 20, 20, 20)},
		{"per rank, independent ranks", VLLMRouter(RouteRoundRobin), true, true, ms(19, 19, 19, 19, 20, 20, 20, 20)},
		{"one front end", VLLMRouter(RouteRoundRobin), false, false, ms(79, 79, 79, 79, 79, 79, 79, 80)},
		{"no router", Router{}, true, false, ms(79, 79, 79, 79, 79, 79, 79, 80)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSimulator(Config{Step: func([]perf.RankLoad) float64 { return 0.001 }, DP: 4, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20,
				InputTokens: 100, OutputTokens: 2, Sessions: 8, Pool: 8, Router: c.router, Independent: c.independent,
				Frontend: Frontend{RequestS: 0.010, Servers: 1, PerRank: c.perRank}})
			if got := s.fronts != nil; got != (c.perRank && c.router.Active()) {
				t.Fatalf("per-rank front ends: %v", got)
			}
			s.run()
			var front []float64
			for _, r := range s.measured {
				front = append(front, r.frontend)
			}
			slices.Sort(front)
			if len(front) != len(c.want) {
				t.Fatalf("%d requests measured, want %d", len(front), len(c.want))
			}
			for i := range front {
				if math.Abs(front[i]-c.want[i]) > 1e-9 {
					t.Fatalf("front-end parts %v s, want %v s", front, c.want)
				}
			}
		})
	}
}

// TestPerRankFrontEndLoad: the router routing on arrival counts the
// requests a rank's API server still holds as that rank's load (vllm-
// router counts a worker's load from dispatch): power_of_two and
// cache_aware see them, not an empty engine.
func TestPerRankFrontEndLoad(t *testing.T) {
	s := newSimulator(Config{Step: func([]perf.RankLoad) float64 { return 0.001 }, DP: 2, MaxNumSeqs: 64, MaxNumBatchedTokens: 1 << 20,
		InputTokens: 100, OutputTokens: 2, Sessions: 2, Pool: 2, Router: VLLMRouter(RouteCacheAware),
		Frontend: Frontend{RequestS: 0.010, Servers: 1, PerRank: true}})
	r := simReq{session: -1, prompt: 100, input: 100, output: 2}
	s.arrive(r)
	s.arrive(r)
	if a, b := len(s.frontOf(0).ingest), len(s.frontOf(1).ingest); a != 1 || b != 1 {
		t.Errorf("two new requests on idle ranks: front-end queues %d and %d, want 1 and 1 (least loaded, counting the queued)", a, b)
	}
	if s.frontLoad(0) != 1 || s.rankLoad(0) != 0 {
		t.Errorf("rank 0's load %d (engine %d), want 1 (its API server's request) and 0", s.frontLoad(0), s.rankLoad(0))
	}
}
