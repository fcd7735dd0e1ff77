package perf

import (
	"math"
	"testing"
)

func perfNear(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(math.Abs(b), 1e-12) }

// Uniform routing, hand-checkable: 2 nodes × 1 GPU, 2 experts, k=1. The
// token's expert is on the other node half of the time.
func TestPerfRoutingTwoNodesOneExpert(t *testing.T) {
	r := ExpectedRouting(2, 1, 0, 0, 2, 1)
	if !perfNear(r.RemoteNodes, 0.5, 1e-9) || !perfNear(r.RemoteExpertCopies, 0.5, 1e-9) || r.LocalGPUs != 0 {
		t.Fatalf("got %+v", r)
	}
}

// Copies per remote expert are k × (share of experts elsewhere) whatever the
// group limit: DeepSeek-V3 on EP32 over 4 nodes sends 8 × 3/4 = 6 copies.
func TestPerfRoutingDeepSeekEP32(t *testing.T) {
	uni := ExpectedRouting(256, 8, 0, 0, 32, 8)
	grp := ExpectedRouting(256, 8, 8, 4, 32, 8)
	for _, r := range []Routing{uni, grp} {
		if !perfNear(r.RemoteExpertCopies, 6, 1e-9) {
			t.Fatalf("remote copies %v, want 6", r.RemoteExpertCopies)
		}
	}
	// Uniform: P(node missed) = C(192,8)/C(256,8) ≈ 0.0988 → 3 × 0.901 remote nodes.
	if !perfNear(uni.RemoteNodes, 3*(1-routeMissProb(256, 64, 8)), 1e-9) {
		t.Fatalf("uniform remote nodes %v", uni.RemoteNodes)
	}
	// The group limit (4 of 8 groups, 2 groups per node) concentrates experts:
	// fewer distinct nodes than uniform.
	if !(grp.RemoteNodes < uni.RemoteNodes) || grp.RemoteNodes < 1.5 {
		t.Fatalf("grouped remote nodes %v vs uniform %v", grp.RemoteNodes, uni.RemoteNodes)
	}
}

// With one group per node and topk_group=4, no token reaches more than 4
// nodes even when there are 16 nodes.
func TestPerfRoutingGroupLimitBoundsNodes(t *testing.T) {
	r := ExpectedRouting(256, 8, 16, 4, 128, 8)
	if r.RemoteNodes > 4 {
		t.Fatalf("remote nodes %v > topk_group", r.RemoteNodes)
	}
	u := ExpectedRouting(256, 8, 0, 0, 128, 8)
	if u.RemoteNodes < 6 {
		t.Fatalf("uniform over 16 nodes should reach ~7 nodes, got %v", u.RemoteNodes)
	}
}

// routingByRank is the per-rank form of routingForSubset (every source
// rank visited), kept to check the node-by-node sum against.
func (s routingShape) routingByRank(sub []bool) Routing {
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

// TestRoutingNodeSumMatchesRanks: the node-by-node sum equals visiting
// every rank, for fewer and more ranks than experts, partial last nodes,
// remainders in the expert map and group limits.
func TestRoutingNodeSumMatchesRanks(t *testing.T) {
	for _, sh := range []routingShape{
		{256, 8, 8, 4, 32, 8}, {256, 8, 0, 0, 20, 8}, {160, 6, 0, 0, 24, 8}, {128, 8, 0, 0, 1000, 8},
		{256, 8, 8, 4, 4000, 8}, {60, 4, 0, 0, 7, 4}, {384, 8, 1, 1, 64, 8},
	} {
		for _, sub := range sh.groupSubsets() {
			got, want := sh.routingForSubset(sub), sh.routingByRank(sub)
			for i, p := range [][2]float64{{got.RemoteNodes, want.RemoteNodes}, {got.RemoteNodeGPUs, want.RemoteNodeGPUs},
				{got.LocalGPUs, want.LocalGPUs}, {got.RemoteExpertCopies, want.RemoteExpertCopies}, {got.LocalExpertCopies, want.LocalExpertCopies}} {
				if math.Abs(p[0]-p[1]) > 1e-9*math.Max(1, math.Abs(p[1])) {
					t.Fatalf("%+v field %d: %v, per rank %v", sh, i, p[0], p[1])
				}
			}
		}
	}
}
