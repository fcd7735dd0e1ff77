package perf

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
	subsets := s.groupSubsets()
	var out Routing
	for _, sub := range subsets {
		out.add(s.routingForSubset(sub), 1/float64(len(subsets)))
	}
	return out
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
// M allowed experts.
func (s routingShape) routingForSubset(sub []bool) Routing {
	gpuM := make([]int, s.epRanks)
	M := 0
	for e := 0; e < s.experts; e++ {
		if s.allowed(sub, e) {
			gpuM[s.rankOf(e)]++
			M++
		}
	}
	k := min(s.topK, M)
	nodes := (s.epRanks + s.gpusPerNod - 1) / s.gpusPerNod
	nodeM := make([]int, nodes)
	nodeHitGPUs, nodeCopies := make([]float64, nodes), make([]float64, nodes)
	var totHitGPUs float64
	for g, m := range gpuM {
		n := g / s.gpusPerNod
		nodeM[n] += m
		h := 1 - routeMissProb(M, m, k)
		nodeHitGPUs[n] += h
		nodeCopies[n] += float64(k) * float64(m) / float64(M)
		totHitGPUs += h
	}
	nodeHit := make([]float64, nodes)
	var totNodeHit float64
	for n, m := range nodeM {
		nodeHit[n] = 1 - routeMissProb(M, m, k)
		totNodeHit += nodeHit[n]
	}
	var r Routing
	w := 1 / float64(s.epRanks)
	for src := 0; src < s.epRanks; src++ {
		n := src / s.gpusPerNod
		selfHit := 1 - routeMissProb(M, gpuM[src], k)
		selfCopies := float64(k) * float64(gpuM[src]) / float64(M)
		r.RemoteNodes += w * (totNodeHit - nodeHit[n])
		r.RemoteNodeGPUs += w * (totHitGPUs - nodeHitGPUs[n])
		r.LocalGPUs += w * (nodeHitGPUs[n] - selfHit)
		r.RemoteExpertCopies += w * (float64(k) - nodeCopies[n])
		r.LocalExpertCopies += w * (nodeCopies[n] - selfCopies)
	}
	return r
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
