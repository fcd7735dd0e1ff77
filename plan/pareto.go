package plan

import "sort"

// CurvePoint is steady decoding at one concurrency (step model).
type CurvePoint struct {
	Sessions      int     `json:"sessions"`
	TPOTS         float64 `json:"tpot_s"`
	OutputTokPerS float64 `json:"output_tokens_per_s"`
}

// ParetoPoint is one point of the front: a candidate at a concurrency.
type ParetoPoint struct {
	Settings Settings `json:"settings"`
	// Rank is the candidate's place in the top list (0: not listed).
	Rank int `json:"rank,omitempty"`
	CurvePoint
	PerGPU float64 `json:"output_tokens_per_s_per_gpu"`
}

// pareto is the front of output tokens/s per GPU against TPOT over every
// candidate that fits, each at every concurrency of its steady-decode
// curve within KV capacity (the step model: one basis for all, the
// simulation ran for the front-runners only): no other point has both a
// shorter TPOT and more tokens/s per GPU. Fastest TPOT first; between
// equal points the better-ranked (by bound) candidate stands.
func pareto(fit []*evaluated) []ParetoPoint {
	var all []ParetoPoint
	for _, e := range fit {
		for _, p := range e.curve {
			all = append(all, ParetoPoint{Settings: e.Settings, Rank: e.Rank, CurvePoint: p, PerGPU: p.OutputTokPerS / float64(e.GPUs)})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].TPOTS != all[j].TPOTS {
			return all[i].TPOTS < all[j].TPOTS
		}
		return all[i].PerGPU > all[j].PerGPU
	})
	var front []ParetoPoint
	best := 0.0
	for _, p := range all {
		if p.PerGPU > best {
			front = append(front, p)
			best = p.PerGPU
		}
	}
	return front
}

// groupLeaderPoints are the best candidate of every group that fits, for
// the chart's hover points.
func groupLeaderPoints(fit []*evaluated) []Candidate {
	var out []Candidate
	for _, e := range groupLeaders(fit) {
		out = append(out, e.Candidate)
	}
	return out
}
