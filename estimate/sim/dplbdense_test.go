package sim

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestBlindDenseDP: vLLM deals a dense model's requests blind from 0.14.0
// (PR #30739: its DP ranks are EngineCoreProcs, which publish no counts),
// not before (0.13.0: DPEngineCoreProc publishes them), and never a MoE's.
func TestBlindDenseDP(t *testing.T) {
	defer func(v bool) { UseDenseDPBlindLB = v }(UseDenseDPBlindLB)
	UseDenseDPBlindLB = true
	rel := func(s string) vllm.Release {
		r, _, err := vllm.ResolveString(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	node := vllm.DPNode{Size: 2, LocalSize: 2}
	for _, c := range []struct {
		release string
		dense   bool
		want    bool
	}{{"0.15.0", true, true}, {"0.14.0", true, true}, {"0.13.0", true, false}, {"0.15.0", false, false}} {
		d := DPLBDeployment{VLLM: true, Served: true, Release: rel(c.release), Node: node, APIServers: 2, Dense: c.dense}
		if got := DPLBFor(d).Blind; got != c.want {
			t.Errorf("%s dense=%v: blind %v, want %v", c.release, c.dense, got, c.want)
		}
	}
	UseDenseDPBlindLB = false
	if DPLBFor(DPLBDeployment{VLLM: true, Served: true, Release: rel("0.15.0"), Node: node, APIServers: 2, Dense: true}).Blind {
		t.Error("switch off: blind")
	}
}

// TestBlindDPLBDeals: one API server over two ranks, rank 0 running 8
// requests and rank 1 none. Seeing the counts, the balancer sends the
// next two requests to rank 1 (score 0, then 4 — below 8). Blind, the
// view holds only its own picks: it deals 0, 1, 0, 1 whatever the ranks
// run, a publication 100 ms later changes nothing, and the coordinator's
// 5 s republication of zeros restarts the deal at rank 0 (after an odd
// number of picks, rank 0 gets two in a row).
func TestBlindDPLBDeals(t *testing.T) {
	ranks := []simRank{{running: make([]simReq, 8)}, {}}
	seeing := newDPLB(DPLB{Clients: 1, IntervalS: 0.1}, 2, 1)
	seeing.publish(ranks, 0)
	for i := range 2 {
		if got := seeing.pickFor(0); got != 1 {
			t.Errorf("seeing, pick %d: rank %d, want 1", i, got)
		}
	}
	blind := newDPLB(DPLB{Clients: 1, IntervalS: 0.1, Blind: true}, 2, 1)
	blind.publish(ranks, 0)
	for i, want := range []int{0, 1, 0, 1, 0} {
		if got := blind.pickFor(0); got != want {
			t.Errorf("blind, pick %d: rank %d, want %d", i, got, want)
		}
	}
	blind.publish(ranks, 0.1) // within 5 s: the view keeps its picks (3, 2)
	if got := blind.pickFor(0); got != 1 {
		t.Errorf("blind after 100 ms: rank %d, want 1", got)
	}
	blind.publish(ranks, DPLBBlindIntervalS) // zeros again
	if got := blind.pickFor(0); got != 0 {
		t.Errorf("blind after 5 s: rank %d, want 0", got)
	}
}
