package perf

import "sync"

// Routing summarises where one token's top-k routed experts live, seen from
// the GPU that owns the token, averaged over tokens and source GPUs. It is
// what decides how many bytes an MoE all-to-all puts on each link.
//
// Assumptions (named): routing is uniform over experts — every expert is
// equally likely — except that a model with group-limited routing
// (n_group/topk_group, DeepSeek-V3: 8 groups, 4 chosen) first picks
// topk_group groups uniformly and then k experts uniformly among the
// experts of those groups. Experts are placed contiguously (vLLM's linear
// expert map: rank r holds experts [r·E/EP, (r+1)·E/EP)), ranks fill nodes in
// order, and groups are contiguous expert ranges. Redundant (EPLB) replicas
// balance load but do not change destinations and are ignored here.
type Routing struct {
	// RemoteNodes is the expected number of distinct other nodes holding at
	// least one of the token's experts (DeepEP high-throughput sends one
	// RDMA copy per such node).
	RemoteNodes float64
	// RemoteNodeGPUs is the expected number of distinct GPUs on other nodes
	// hit (high-throughput forwards over NVLink to these after the RDMA hop).
	RemoteNodeGPUs float64
	// LocalGPUs is the expected number of distinct other GPUs on the
	// token's own node hit.
	LocalGPUs float64
	// RemoteExpertCopies is the expected number of the k experts that live
	// on other nodes (DeepEP low-latency sends one RDMA copy per expert).
	RemoteExpertCopies float64
	// LocalExpertCopies is the expected number of the k experts on other
	// GPUs of the token's own node.
	LocalExpertCopies float64
}

// routingShape is the placement the expectations are computed for.
type routingShape struct {
	experts, topK       int // E, k
	nGroup, topKGroup   int // 0 = no group limit
	epRanks, gpusPerNod int
}

// maxGroupSubsets bounds the exact enumeration of group choices; above it
// the group limit is dropped (uniform routing), which overestimates spread.
const maxGroupSubsets = 20000

// ExpectedRouting computes Routing for E experts, top-k, an EP group of
// epRanks GPUs with gpusPerNode GPUs per node, and optional group-limited
// routing (nGroup, topKGroup; zeros for none).
func ExpectedRouting(experts, topK, nGroup, topKGroup, epRanks, gpusPerNode int) Routing {
	s := routingShape{experts, topK, nGroup, topKGroup, epRanks, max(1, min(gpusPerNode, epRanks))}
	if experts <= 0 || topK <= 0 || epRanks <= 1 {
		return Routing{}
	}
	if r, ok := routingCache.get(s); ok {
		return r
	}
	subsets := s.groupSubsets()
	var out Routing
	for _, sub := range subsets {
		out.add(s.routingForSubset(sub), 1/float64(len(subsets)))
	}
	routingCache.put(s, out)
	return out
}

// routingCache keeps recent ExpectedRouting results: `vlaunch check` builds
// step models for the same layout many times over (what-if bandwidths,
// floors, alternatives), and at a 10,000-node EP group each expectation
// visits every node for each of DeepSeek-V3's 70 group choices.
var routingCache = &routingMemo{m: map[routingShape]Routing{}}

// routingMemo is a small map safe for concurrent use, emptied when full.
type routingMemo struct {
	mu sync.Mutex
	m  map[routingShape]Routing
}

const routingMemoSize = 64

func (c *routingMemo) get(s routingShape) (Routing, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[s]
	return r, ok
}

func (c *routingMemo) put(s routingShape, r Routing) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= routingMemoSize {
		clear(c.m)
	}
	c.m[s] = r
}

func (r *Routing) add(o Routing, w float64) {
	r.RemoteNodes += w * o.RemoteNodes
	r.RemoteNodeGPUs += w * o.RemoteNodeGPUs
	r.LocalGPUs += w * o.LocalGPUs
	r.RemoteExpertCopies += w * o.RemoteExpertCopies
	r.LocalExpertCopies += w * o.LocalExpertCopies
}

// groupSubsets lists the allowed expert sets as boolean masks over groups;
// without a usable group limit it is one set holding every group.
func (s routingShape) groupSubsets() [][]bool {
	if s.nGroup <= 1 || s.topKGroup <= 0 || s.topKGroup >= s.nGroup || s.experts%s.nGroup != 0 ||
		perfBinom(s.nGroup, s.topKGroup) > maxGroupSubsets {
		all := []bool{true}
		return [][]bool{all}
	}
	var out [][]bool
	var rec func(start, left int, cur []bool)
	rec = func(start, left int, cur []bool) {
		if left == 0 {
			out = append(out, append([]bool(nil), cur...))
			return
		}
		for g := start; g <= s.nGroup-left; g++ {
			cur[g] = true
			rec(g+1, left-1, cur)
			cur[g] = false
		}
	}
	rec(0, s.topKGroup, make([]bool, s.nGroup))
	return out
}

// allowed reports whether expert e is in the chosen groups.
func (s routingShape) allowed(sub []bool, e int) bool {
	if len(sub) == 1 {
		return true
	}
	return sub[e/(s.experts/s.nGroup)]
}

// rankOf is vLLM's linear expert map (remainder spread over the first ranks).
func (s routingShape) rankOf(e int) int {
	per, rem := s.experts/s.epRanks, s.experts%s.epRanks
	if per == 0 {
		return e % s.epRanks
	}
	cut := rem * (per + 1)
	if e < cut {
		return e / (per + 1)
	}
	return rem + (e-cut)/per
}

// routingForSubset is the exact expectation for one group choice, averaged
// over source ranks: k experts drawn uniformly without replacement from the
// M allowed experts. Only GPUs holding allowed experts and whole nodes are
// visited (the sum over source ranks is taken node by node), so the cost
// grows with the experts and nodes, not with an EP group of 80,000 ranks.
func (s routingShape) routingForSubset(sub []bool) Routing {
	type gpuCount struct{ g, m int } // allowed experts on GPU g
	var gpus []gpuCount
	M := 0
	for e := 0; e < s.experts; e++ {
		if !s.allowed(sub, e) {
			continue
		}
		// the linear map gives each GPU a contiguous range of experts
		if g, n := s.rankOf(e), len(gpus); n > 0 && gpus[n-1].g == g {
			gpus[n-1].m++
		} else {
			gpus = append(gpus, gpuCount{g, 1})
		}
		M++
	}
	k := min(s.topK, M)
	miss := missMemo(M, k)
	nodes := (s.epRanks + s.gpusPerNod - 1) / s.gpusPerNod
	nodeM := make([]int, nodes)
	nodeHitGPUs, nodeCopies := make([]float64, nodes), make([]float64, nodes)
	var totHitGPUs float64
	for _, gc := range gpus {
		n := gc.g / s.gpusPerNod
		nodeM[n] += gc.m
		h := 1 - miss(gc.m)
		nodeHitGPUs[n] += h
		nodeCopies[n] += float64(k) * float64(gc.m) / float64(M)
		totHitGPUs += h
	}
	nodeHit := make([]float64, nodes)
	var totNodeHit float64
	for n, m := range nodeM {
		nodeHit[n] = 1 - miss(m)
		totNodeHit += nodeHit[n]
	}
	// Σ over the node's source GPUs; a GPU's own hit and copies summed
	// over the node are the node's.
	var r Routing
	w := 1 / float64(s.epRanks)
	for n := 0; n < nodes; n++ {
		gn := float64(min(s.gpusPerNod, s.epRanks-n*s.gpusPerNod))
		r.RemoteNodes += w * gn * (totNodeHit - nodeHit[n])
		r.RemoteNodeGPUs += w * gn * (totHitGPUs - nodeHitGPUs[n])
		r.LocalGPUs += w * (gn - 1) * nodeHitGPUs[n]
		r.RemoteExpertCopies += w * gn * (float64(k) - nodeCopies[n])
		r.LocalExpertCopies += w * (gn - 1) * nodeCopies[n]
	}
	return r
}

// missMemo is routeMissProb(M, m, k) as a function of m, each value
// computed once (a group holds few distinct expert counts).
func missMemo(M, k int) func(int) float64 {
	memo := make([]float64, M+1)
	for m := range memo {
		memo[m] = -1
	}
	return func(m int) float64 {
		if memo[m] < 0 {
			memo[m] = routeMissProb(M, m, k)
		}
		return memo[m]
	}
}

// routeMissProb is the probability that k draws without replacement from M items
// miss all m marked ones: C(M−m, k) / C(M, k).
func routeMissProb(M, m, k int) float64 {
	p := 1.0
	for i := 0; i < k; i++ {
		if M-m-i <= 0 {
			return 0
		}
		p *= float64(M-m-i) / float64(M-i)
	}
	return p
}

func perfBinom(n, k int) int {
	r := 1
	for i := 1; i <= k; i++ {
		r = r * (n - k + i) / i
		if r > 1<<40 {
			return r
		}
	}
	return r
}
