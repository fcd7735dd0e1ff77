package sim

import (
	"testing"
)

// TestCacheAwareRoute holds the cache_aware rule (router.go, vllm-router's
// CacheAwarePolicy) to hand-worked cases on 4 ranks, session 0 having sent
// its last turn (a 3,072-token prompt: 2,048 of history + 1,024 of input)
// to rank 2 and now sending a turn of 5,120 tokens (history 4,096 = the
// last prompt + its 1,024-token answer, input 1,024): match rate 3,072 /
// 5,120 = 0.6.
func TestCacheAwareRoute(t *testing.T) {
	turn := simReq{session: 0, hist: 4096, input: 1024, prompt: 5120}
	cases := []struct {
		name   string
		cfg    Router
		prev   routedSession
		req    simReq
		loads  []int
		want   int
		reason string
	}{
		{"returns to its rank", VLLMRouter(RouteCacheAware), routedSession{3, 3072}, turn, []int{1, 1, 5, 1}, 2,
			"balanced (max − min = 4 ≤ 64) and 0.6 > 0.3: the rank that holds the history, though busier"},
		{"overloaded rank skipped", VLLMRouter(RouteCacheAware), routedSession{3, 3072}, turn, []int{10, 9, 90, 12}, 1,
			"90 − 9 = 81 > 64 and 90 > 9 × 1.5: imbalanced, shortest queue (rank 1)"},
		{"within the absolute threshold", VLLMRouter(RouteCacheAware), routedSession{3, 3072}, turn, []int{10, 9, 73, 12}, 2,
			"73 − 9 = 64, not > 64: balanced"},
		{"within the relative threshold", VLLMRouter(RouteCacheAware), routedSession{3, 3072}, turn, []int{200, 190, 280, 200}, 2,
			"280 − 190 = 90 > 64 but 280 ≤ 190 × 1.5 = 285: balanced"},
		{"library default threshold", Router{Policy: RouteCacheAware, CacheThreshold: 0.5, BalanceAbs: 32, BalanceRel: 1.1},
			routedSession{3, 1024}, simReq{session: 0, hist: 2048, input: 1024, prompt: 3072}, []int{4, 3, 3, 3}, 1,
			"second turn: 1,024 / 3,072 = 0.33, not > 0.5: least loaded (first of equals)"},
		{"CLI default threshold", VLLMRouter(RouteCacheAware),
			routedSession{3, 1024}, simReq{session: 0, hist: 2048, input: 1024, prompt: 3072}, []int{4, 3, 3, 3}, 2,
			"second turn: 1,024 / 3,072 = 0.33 > 0.3: the rank of the first"},
		{"new conversation", VLLMRouter(RouteCacheAware), routedSession{3, 3072},
			simReq{session: 0, hist: 0, input: 1024, prompt: 1024}, []int{4, 3, 3, 3}, 1,
			"no history: nothing of the prompt in the tree, least loaded"},
		{"nothing sent yet", VLLMRouter(RouteCacheAware), routedSession{}, turn, []int{4, 3, 3, 2}, 3,
			"a session's first request in the run (history drawn, tree empty): least loaded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := newRouterState(c.cfg, 1, 1)
			st.sent[0] = c.prev
			r := c.req
			got := st.routeRank(&r, func(i int) int { return c.loads[i] }, len(c.loads))
			if got != c.want {
				t.Fatalf("routed to rank %d, want %d: %s", got, c.want, c.reason)
			}
			if st.sent[0] != (routedSession{got + 1, r.prompt}) {
				t.Errorf("tree holds %+v, want the prompt under rank %d", st.sent[0], got)
			}
		})
	}
}

// TestRoundRobinAndHashRoutes: round_robin takes the ranks in turn whatever
// their loads; consistent_hash gives a session the same rank every time.
func TestRoundRobinAndHashRoutes(t *testing.T) {
	st := newRouterState(VLLMRouter(RouteRoundRobin), 0, 1)
	for i := range 7 {
		r := simReq{session: -1}
		if got := st.routeRank(&r, func(int) int { return 0 }, 3); got != i%3 {
			t.Fatalf("request %d to rank %d, want %d", i, got, i%3)
		}
	}
	h := newRouterState(VLLMRouter(RouteConsistentHash), 50, 1)
	seen := map[int]bool{}
	for s := range 50 {
		r := simReq{session: s}
		a := h.routeRank(&r, func(int) int { return s }, 8)
		b := h.routeRank(&r, func(int) int { return 0 }, 8)
		if a != b {
			t.Fatalf("session %d to rank %d then %d", s, a, b)
		}
		seen[a] = true
	}
	if len(seen) < 6 {
		t.Errorf("50 sessions hashed to only %d of 8 ranks", len(seen))
	}
}

// TestRouterKeepsHistoriesOnTheirRank: the history workload of
// TestSessionHistoryOtherRank (two ranks, two sessions, ample KV) behind
// a cache_aware router: every turn after a conversation's first finds its
// history on the rank of its last turn (1,016 tokens prefilled: the
// input plus the history's last block), where without the router some
// recompute it all; round_robin takes the ranks in turn, so with three
// sessions on two ranks a session's turns move between them.
func TestRouterKeepsHistoriesOnTheirRank(t *testing.T) {
	cfg := Config{Step: constStep(0.01), DP: 2, MaxNumSeqs: 8, MaxNumBatchedTokens: 1 << 20, KVTokensPerRank: 1 << 20, BlockSize: 16,
		InputTokens: 1000, OutputTokens: 1000, Sessions: 2, Pool: 40, SessionTokens: 10000, PrefixCaching: true, Seed: 3, StaggerS: 5}
	count := func(cfg Config) (hits, misses int, res Result) {
		got, res := prefills(cfg)
		for _, n := range got {
			switch {
			case n == 1016:
				hits++
			case n > 1000:
				misses++
			}
		}
		return hits, misses, res
	}
	_, missNone, resNone := count(cfg)
	cfg.Router = VLLMRouter(RouteCacheAware)
	hits, misses, res := count(cfg)
	if misses != 0 || hits == 0 {
		t.Errorf("cache_aware: %d recomputed histories, %d hits: want every history found", misses, hits)
	}
	if missNone == 0 || !(res.HistoryReused > resNone.HistoryReused) {
		t.Errorf("without a router %d recomputed, reuse %.3f; with cache_aware reuse %.3f: the case should show the difference",
			missNone, resNone.HistoryReused, res.HistoryReused)
	}
	cfg.Router = VLLMRouter(RouteRoundRobin)
	cfg.Sessions = 3 // two sessions on two ranks would each keep one rank in turn
	if _, rr, _ := count(cfg); rr == 0 {
		t.Errorf("round_robin recomputed no history: it should move turns between ranks")
	}
}
