package sim

import "github.com/vlaunch/vlaunch/vllm"

// A dense model's DP ranks publish no request counts from vLLM 0.14.0 on
// (vllm.Release.DenseDPBalancedBlind, where the release facts and their
// sources live; issue #28 "densettft44"): each API server's balancer
// holds only its own picks since the coordinator's last publication of
// zeros and deals requests to the ranks in turn.

// UseDenseDPBlindLB deals a dense model's requests to its DP ranks as
// vLLM ≥ 0.14.0 does (DPLB.Blind); off, every balancer sees the ranks'
// counts every 100 ms, which those releases do not do. On since session
// 44: the mechanism is read in vLLM's code at the tags; on the replay it
// moves no held-out or calibration figure across ±30% (dense ttft_mean
// 40 of 65 and ttft_p99 37 of 50 either way, the ttft_mean median 25.9%
// → 25.5%: docs/calibration-analysis.md "densettft44") and it does not
// break the Llama TP4 × DP2 c10 waves it was first meant to. It is kept
// for what it is: what the release does with a dense model's DP ranks.
var UseDenseDPBlindLB = true

// DPLBBlindIntervalS is how often the coordinator republishes counts that
// have not changed (5 s, above): a blind view's reset.
const DPLBBlindIntervalS = 5.0

// BlindDenseDP reports whether vLLM's balancer deals a deployment's
// requests without the ranks' counts: a dense model (d.Dense) on a release
// whose dense DP ranks publish none (vllm.Release.DenseDPBalancedBlind;
// Maybe counts as blind: the code read at 0.14.0 and 0.24.0 agrees).
func BlindDenseDP(d DPLBDeployment) bool {
	p, _ := d.Release.DenseDPBalancedBlind()
	return UseDenseDPBlindLB && d.Dense && p != vllm.Absent
}

// viewCounts is what a view shows of a rank at a publication: its waiting
// and running requests, or nothing when the engines publish no counts.
func (st *dplbState) viewCounts(r *simRank) [2]int {
	if st.cfg.Blind {
		return [2]int{}
	}
	return [2]int{len(r.waiting), len(r.running)}
}

// interval is how often the views are replaced.
func (st *dplbState) interval() float64 {
	if st.cfg.Blind {
		return DPLBBlindIntervalS
	}
	return st.cfg.IntervalS
}
