package sim

import "math/rand/v2"

// DPLB is vLLM's internal DP load balancer, as the simulator models it
// (Config.DPLB; zero Clients: every request goes to the rank with the
// fewest requests at that instant).
//
// What vLLM 0.19.0 does (vllm/v1/engine/core_client.py,
// DPLBAsyncMPClient.get_core_engine_for_request, 0.19.0 lines 1337–1360 as
// pegainfer-project/pegainfer@e38dfdd8 docs/models/kimi-k2/
// tp1-dp8-ep8-performance.md cites them; the same code in stored copies):
// each API server process keeps its own lb_engines, the [waiting, running]
// counts of every engine that the DP coordinator last published — every
// 100 ms ("stats updates from the coordinator (which happen every
// 100ms)", the code's comment; coordinator.py min_stats_update_interval_ms
// = 100), each publication replacing the whole view — and routes a
// request to the engine with the lowest waiting × 4 + running, scanning
// from eng_start_index = DP × client_index // client_count and keeping the
// first minimum (strict <), then adds client_count to that engine's
// waiting count in its own view until the next publication. No process
// sees the others' reservations, and no view sees a request finish until
// the coordinator next publishes: a rank that just freed a slot looks as
// full as before, and several requests in one interval can land on the
// same rank. The source's logs show the result at 64 sessions on 8 ranks:
// 8,9,9,9,8,7,7,7 and 11,7,7,7,7,8,9,8 — never the 8 a rank exact
// balance keeps.
type DPLB struct {
	// Clients is the number of API server processes (client_count), each
	// with its own view. Each request reaches one drawn at random: the
	// processes share the listening socket and the kernel spreads the
	// client's connections over them (SO_REUSEPORT), and a benchmark client
	// sends each request on whichever pooled connection is free.
	Clients int
	// IntervalS is how often the coordinator publishes the counts.
	IntervalS float64
}

// UseDPLB routes the requests of a vLLM deployment with internal DP load
// balancing through DPLB in the callers that build the simulator's Config
// (issue #28 "largebatch"; on since session 32, see perf.UseMarlinBlocks).
// Wired in estimate/replay
// only (every vLLM row with an API server and DP > 1, at its API-server
// count); check's simulation (slo.ApplyEngine) does not read it yet, and
// would need the deployment's LB mode (external and hybrid LB route
// otherwise) and its representative-rank tiling. Trial: perf.UseMarlinBlocks.
var UseDPLB = true

// DPLBPublishIntervalS is the coordinator's publication interval (100 ms,
// above).
const DPLBPublishIntervalS = 0.1

// dplbState is the balancer's views and the last publication's time.
type dplbState struct {
	cfg   DPLB
	views [][][2]int // per client, per rank: waiting, running
	at    float64    // when the views were last published (−1: never)
	rng   *rand.Rand // draws the client each request reaches
}

func newDPLB(cfg DPLB, dp int, seed uint64) *dplbState {
	st := &dplbState{cfg: cfg, at: -1, rng: rand.New(rand.NewPCG(seed^0x5bd1e995, seed+0x27d4eb2f))}
	st.views = make([][][2]int, cfg.Clients)
	for c := range st.views {
		st.views[c] = make([][2]int, dp)
	}
	return st
}

// publish replaces every view with the ranks' counts when an interval
// has passed since the last publication (the first call always does).
func (st *dplbState) publish(ranks []simRank, now float64) {
	if st.at >= 0 && now < st.at+st.cfg.IntervalS {
		return
	}
	st.at = now
	for c := range st.views {
		for i := range ranks {
			st.views[c][i] = [2]int{len(ranks[i].waiting), len(ranks[i].running)}
		}
	}
}

// pick routes one request through a client drawn at random.
func (st *dplbState) pick() int { return st.pickFor(st.rng.IntN(len(st.views))) }

// pickFor routes one request through client c's view.
func (st *dplbState) pickFor(c int) int {
	v := st.views[c]
	n := len(v)
	start := n * c / len(st.views)
	best, min := 0, -1
	for i := 0; i < n; i++ {
		idx := (start + i) % n
		if score := v[idx][0]*4 + v[idx][1]; min < 0 || score < min {
			best, min = idx, score
		}
	}
	v[best][0] += len(st.views)
	return best
}
