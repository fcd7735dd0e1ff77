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
