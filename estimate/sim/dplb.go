package sim

import (
	"math/rand/v2"

	"github.com/vlaunch/vlaunch/vllm"
)

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
	// GroupRanks is how many consecutive DP ranks one group of Clients API
	// servers routes over (0: all of them, internal LB). Under hybrid LB
	// every node's API servers balance over that node's ranks only (see
	// DPLBFor); an outside balancer spreads the requests over the nodes,
	// which the simulator stands in for by drawing each request's API
	// server uniformly from all groups' (its policy is not vLLM's).
	GroupRanks int
	// Blind: the engines publish no counts (BlindDenseDP); each view holds
	// its own picks, zeroed every DPLBBlindIntervalS.
	Blind bool
}

// UseDPLB routes the requests of a vLLM deployment with internal (or
// hybrid) DP load balancing through DPLB (issue #28 "largebatch"; on since
// session 32, see perf.UseMarlinBlocks). Every caller that builds the
// simulator's Config decides it through DPLBFor: the calibration replays
// (estimate/replay, from a row's flags) and check's simulation
// (slo.ApplyEngine, from the deployment vlaunch launches; estimate/pd's
// pools and calibrate's replays through it too), so check and the replay
// compute one deployment the same way (issue #28 "dplbcheck"). Trial:
// perf.UseMarlinBlocks.
var UseDPLB = true

// DPLBDeployment is what decides a deployment's DP load balancer.
type DPLBDeployment struct {
	// VLLM: the engine is vLLM (SGLang and others balance otherwise).
	VLLM bool
	// Served: requests come through vLLM's API server (an offline run's
	// LLM class, or a steady-state figure, has no front end routing them).
	Served bool
	// Release is the vLLM release whose rules read Node.
	Release vllm.Release
	// Node is the command of the node that serves the API (Size: the DP
	// size of one replica), read for its LB mode by
	// vllm.Release.DPLoadBalancing.
	Node vllm.DPNode
	// APIServers is the API-server processes of one group: the head
	// node's --api-server-count under internal LB, each node's under
	// hybrid LB.
	APIServers int
	// Dense: the model is not MoE (its DP ranks are independent engines;
	// BlindDenseDP). False where unknown.
	Dense bool
}

// DPLBFor is the DP load balancer a deployment runs, the one decision both
// check and the calibration replay use (zero: none, every request handed
// to the rank with the fewest requests). What vLLM runs, by LB mode
// (vllm/v1/engine/core_client.py, EngineCoreClient.make_async_mp_client
// and MPClient.__init__; the same lines in Yuran-7/vllm-0.11 @2665d4910
// and, through ParallelConfig.local_engines_only in vllm/config/
// parallel.py, in vllm-project/vllm @00080ee1):
//
//   - internal LB (DP > 1, no external-LB flag): every API server runs a
//     DPLBAsyncMPClient whose engine_ranks_managed are all DP ranks
//     ("Client manages local+remote EngineCores in pure internal LB
//     case"): Clients = the API servers, over every rank;
//   - hybrid LB (--data-parallel-hybrid-lb, or a start rank that infers
//     it): local_engines_only, so each node's API servers balance over
//     range(dp_rank, dp_rank + data_parallel_size_local), their node's
//     ranks, with client_count = that node's API servers
//     (vllm/entrypoints/cli/serve.py run_multi_api_server: num_servers =
//     --api-server-count on each node); the coordinator still publishes
//     every rank's counts and each client slices its own (count_slice),
//     every 100 ms as under internal LB: GroupRanks = the local ranks;
//   - external LB (--data-parallel-external-lb or --data-parallel-rank):
//     make_async_mp_client returns a DPAsyncMPClient, which sends every
//     request to its own single rank ("External load balancer - client
//     per DP rank"): vLLM balances nothing, an outside router does, whose
//     policy vLLM does not set. No DPLB: the simulator's default (the
//     rank with the fewest requests) stands in for that router.
//
// The mode is vllm.Release.DPLoadBalancing's reading of the API server's
// node (a hybrid node holding every rank is internal LB: vLLM turns hybrid
// off when data_parallel_size_local = DP; hybrid with one local rank is
// external LB).
func DPLBFor(d DPLBDeployment) DPLB {
	if !UseDPLB || !d.VLLM || !d.Served || d.Node.Size <= 1 {
		return DPLB{}
	}
	lb := DPLB{Clients: max(1, d.APIServers), IntervalS: DPLBPublishIntervalS, Blind: BlindDenseDP(d)}
	switch mode, _ := d.Release.DPLoadBalancing(d.Node); mode {
	case vllm.LBInternal:
	case vllm.LBHybrid: // DPLoadBalancing: 1 < local < DP
		lb.GroupRanks = d.Node.LocalSize
	default: // external (one rank per API server), headless, invalid
		return DPLB{}
	}
	return lb
}

// DPLBMode is the LB mode DPLBFor reads d's node in ("" for a deployment
// with no balancer to decide: not vLLM, not served, DP 1).
func DPLBMode(d DPLBDeployment) vllm.LBMode {
	if !d.VLLM || !d.Served || d.Node.Size <= 1 {
		return ""
	}
	mode, _ := d.Release.DPLoadBalancing(d.Node)
	return mode
}

// Reduced is the balancer of a simulation that stands k ranks for a
// deployment's dp (RunModel's representative ranks, planSim): the same API
// servers per group, each seeing a view of its group's simulated ranks.
// The requests a client routes per interval and rank are then the
// deployment's (the arrivals scale by k/dp with the ranks). A group wider
// than the simulated ranks becomes one group of them.
func (lb DPLB) Reduced(k, dp int) DPLB {
	if lb.Clients == 0 || k >= dp {
		return lb
	}
	if lb.GroupRanks >= k {
		lb.GroupRanks = 0
	}
	return lb
}

// DPLBPublishIntervalS is the coordinator's publication interval (100 ms,
// above).
const DPLBPublishIntervalS = 0.1

// dplbState is the balancer's views and the last publication's time.
type dplbState struct {
	cfg   DPLB
	views [][][2]int // per client, per rank of its group: waiting, running
	// first is the first rank of each client's group (its views' index 0).
	first []int
	at    float64    // when the views were last published (−1: never)
	rng   *rand.Rand // draws the client each request reaches
}

// newDPLB makes the views of cfg's clients over dp ranks: one group of
// cfg.Clients over all of them, or (cfg.GroupRanks) a group of cfg.Clients
// per GroupRanks consecutive ranks (the last group takes what is left).
func newDPLB(cfg DPLB, dp int, seed uint64) *dplbState {
	st := &dplbState{cfg: cfg, at: -1, rng: rand.New(rand.NewPCG(seed^0x5bd1e995, seed+0x27d4eb2f))}
	g := cfg.GroupRanks
	if g <= 0 || g > dp {
		g = dp
	}
	for lo := 0; lo < dp; lo += g {
		n := min(g, dp-lo)
		for range cfg.Clients {
			st.views = append(st.views, make([][2]int, n))
			st.first = append(st.first, lo)
		}
	}
	return st
}

// publish replaces every view with the ranks' counts when an interval
// has passed since the last publication (the first call always does).
func (st *dplbState) publish(ranks []simRank, now float64) {
	if st.at >= 0 && now < st.at+st.interval() {
		return
	}
	st.at = now
	for c, v := range st.views {
		lo := st.first[c]
		if c > 0 && st.first[c-1] == lo && len(st.views[c-1]) == len(v) {
			copy(v, st.views[c-1]) // the group's view, just published
			continue
		}
		for i := range v {
			v[i] = st.viewCounts(&ranks[lo+i])
		}
	}
}

// pick routes one request through a client drawn at random.
func (st *dplbState) pick() int { return st.pickFor(st.rng.IntN(len(st.views))) }

// pickFor routes one request through client c's view: client c is the
// (c mod Clients)-th API server of its group (client_index), scanning from
// eng_start_index = ranks × client_index // client_count.
func (st *dplbState) pickFor(c int) int {
	v := st.views[c]
	n, clients := len(v), st.cfg.Clients
	start := n * (c % clients) / clients
	best, min := 0, -1
	// Ranks start, start+1, ..., n-1, 0, ..., start-1 (start < n): the
	// scan from start modulo n, without a division per rank.
	for i, e := range v[start:] {
		if score := e[0]*4 + e[1]; min < 0 || score < min {
			best, min = start+i, score
		}
	}
	for idx, e := range v[:start] {
		if score := e[0]*4 + e[1]; min < 0 || score < min {
			best, min = idx, score
		}
	}
	v[best][0] += clients
	return st.first[c] + best
}
