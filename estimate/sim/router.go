package sim

import "math/rand/v2"

// An external request router in front of the DP ranks (Config.Router):
// vllm-router (github.com/vllm-project/router) addressing each rank as a
// worker of its own, the ranks running vLLM's external DP load balancing
// (one API server per rank, --data-parallel-rank), so vLLM's own balancer
// (dplb.go) routes nothing. The router's policies, as its source does them
// (vllm-project/router):
//
//   - cache_aware (src/policies/cache_aware.rs @2f2db0d9,
//     CacheAwarePolicy.select_worker_with_headers): the router counts each
//     worker's load, the requests it sent there and that have not finished
//     (Worker::increment_load when a cache_aware request is dispatched,
//     released when its response ends). When the loads are imbalanced —
//     max − min > balance_abs_threshold AND max > min ×
//     balance_rel_threshold — the request goes to the least loaded worker
//     (min_by_key: the first of equals). Otherwise the router looks the
//     request's text up in an approximate radix tree of the texts it sent
//     to each worker: when the longest matched prefix is more than
//     cache_threshold of the text, the request goes to the worker that
//     sent that prefix; else to the least loaded worker. Either way the
//     request's text is inserted under the chosen worker.
//   - round_robin: the workers in turn; random: one drawn uniformly;
//     power_of_two: the less loaded of two drawn workers (the router polls
//     the workers' loads, PowerOfTwo{load_check_interval_secs: 5} in
//     src/main.rs parse_policy; the simulator reads the requests in flight
//     at the instant, an approximation).
//   - consistent_hash: the worker a hash ring gives the request's session
//     key (src/policies/consistent_hash.rs @080589a0: the key from a
//     session/user header first, then the body), whatever the loads.
//
// In a session with history (history.go) turn k's prompt is the
// conversation so far plus its input, and the text the router last sent
// for the session is turn k−1's prompt, a prefix of it (the previous
// output is not in the tree: the router inserts request texts only). The
// match rate is then that prompt's tokens over the new prompt's, the tree's
// characters read as tokens (a chat's characters per token are about the
// same along one conversation). A session's turn so returns to the rank its
// previous turn was sent to unless the loads are imbalanced or its history
// is too short a part of its prompt; whether that rank still caches the
// history is the engine's business (historyHit): the router does not see
// the engine's evictions, nor do its own tree evictions matter here (the
// tree keeps 2^26 characters per worker by default, far more than a rank's
// sessions send between two evictions).

// RouterPolicy is a routing policy of an external router.
type RouterPolicy string

// The routing policies the simulator models (vllm-router's names).
const (
	RouteCacheAware     RouterPolicy = "cache_aware"
	RouteRoundRobin     RouterPolicy = "round_robin"
	RouteRandom         RouterPolicy = "random"
	RoutePowerOfTwo     RouterPolicy = "power_of_two"
	RouteConsistentHash RouterPolicy = "consistent_hash"
)

// Router is an external router in front of the DP ranks (zero Policy:
// none).
type Router struct {
	Policy RouterPolicy
	// CacheThreshold, BalanceAbs and BalanceRel are cache_aware's
	// cache_threshold, balance_abs_threshold and balance_rel_threshold.
	CacheThreshold float64
	BalanceAbs     int
	BalanceRel     float64
}

// Active reports whether a router routes the requests.
func (r Router) Active() bool { return r.Policy != "" }

// vllm-router's command-line defaults for cache_aware
// (vllm-project/router@03e9af5c src/main.rs CliArgs: --cache-threshold
// 0.3, --balance-abs-threshold 64, --balance-rel-threshold 1.5; the
// library's CacheAwareConfig::default, src/policies/mod.rs @2f2db0d9, has
// 0.5, 32 and 1.1, but `vllm-router` passes the CLI's values to
// PolicyConfig::CacheAware in parse_policy).
const (
	VLLMRouterCacheThreshold = 0.3
	VLLMRouterBalanceAbs     = 64
	VLLMRouterBalanceRel     = 1.5
)

// VLLMRouter is vllm-router running policy with its command-line defaults.
func VLLMRouter(policy RouterPolicy) Router {
	return Router{Policy: policy, CacheThreshold: VLLMRouterCacheThreshold, BalanceAbs: VLLMRouterBalanceAbs, BalanceRel: VLLMRouterBalanceRel}
}

// routerState is what the router keeps between requests.
type routerState struct {
	cfg  Router
	next int // round_robin's next worker
	rng  *rand.Rand
	// sent is, per session, the rank its last request went to (+1; 0:
	// none yet) and that request's prompt tokens (the text the tree holds).
	sent []routedSession
}

// routedSession is what the router's tree says of one session.
type routedSession struct {
	rank1  int
	tokens int
}

func newRouterState(cfg Router, sessions int, seed uint64) *routerState {
	return &routerState{cfg: cfg, rng: rand.New(rand.NewPCG(seed^0x2545f4914f6cdd1d, seed+0x9e3779b9)),
		sent: make([]routedSession, max(0, sessions))}
}

// routeRank is the one routing rule of an external router (see above):
// the rank request r goes to, given each rank's requests in flight (load).
// The caller records nothing: routeRank updates the router's own state.
func (st *routerState) routeRank(r *simReq, load func(int) int, n int) int {
	var pick int
	switch st.cfg.Policy {
	case RouteRoundRobin:
		pick = st.next % n
		st.next = pick + 1
	case RouteRandom:
		pick = st.rng.IntN(n)
	case RoutePowerOfTwo:
		a, b := st.rng.IntN(n), st.rng.IntN(n)
		pick = a
		if load(b) < load(a) {
			pick = b
		}
	case RouteConsistentHash:
		pick = hashRank(r.session, n)
	default: // cache_aware
		pick = st.cacheAware(r, load, n)
	}
	if r.session >= 0 && r.session < len(st.sent) {
		st.sent[r.session] = routedSession{rank1: pick + 1, tokens: r.prompt}
	}
	return pick
}

// cacheAware is CacheAwarePolicy's choice for r.
func (st *routerState) cacheAware(r *simReq, load func(int) int, n int) int {
	least, lo, hi := 0, load(0), load(0)
	for i := 1; i < n; i++ {
		l := load(i)
		if l < lo {
			least, lo = i, l
		}
		hi = max(hi, l)
	}
	if hi-lo > st.cfg.BalanceAbs && float64(hi) > float64(lo)*st.cfg.BalanceRel {
		return least // imbalanced: shortest queue
	}
	if r.session < 0 || r.session >= len(st.sent) || r.hist <= 0 || r.prompt <= 0 {
		return least // no text of this conversation in the tree
	}
	prev := st.sent[r.session]
	if prev.rank1 == 0 || prev.rank1 > n || prev.tokens > r.hist {
		return least // not sent yet, or the conversation started afresh
	}
	if float64(prev.tokens)/float64(r.prompt) > st.cfg.CacheThreshold {
		return prev.rank1 - 1
	}
	return least
}

// hashRank is a session's rank on a consistent-hash ring of n workers
// (a 64-bit mix of its id, modulo n: each worker an equal share, where
// the ring's 160 virtual nodes a worker give nearly equal ones).
func hashRank(session, n int) int {
	x := uint64(session) + 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	return int(x % uint64(n))
}

// rankLoad is rank i's requests in flight, the router's load count: a
// request counts from its hand-off to its last token.
func (s *simulator) rankLoad(i int) int { return len(s.ranks[i].running) + len(s.ranks[i].waiting) }
