package vllm

// srcDPLB: the DP load-balancing mode logic in EngineArgs
// (vllm/engine/arg_utils.py, several stored versions) and serve.py.
const srcDPLB = "stored vllm/engine/arg_utils.py (several versions): `if self.data_parallel_start_rank and not headless: # Infer hybrid LB mode` " +
	"(a start rank of 0 does not count), hybrid with local size 1 switches to external LB, hybrid with local size = DP size is turned off, " +
	"\"data_parallel_hybrid_lb is not applicable in headless mode\"; " + srcServe016 + " (is_hybrid_lb = --data-parallel-hybrid-lb or --data-parallel-start-rank is not None: " +
	"any explicit start rank, 0 included, picks the hybrid default --api-server-count = local DP size and is refused together with --data-parallel-rank); " +
	srcServe091 + "; hybrid LB first release 0.10.1 (PRs #21238/#21510, per vllm-facts.md, unverified)"

// LBMode is a data-parallel load-balancing mode.
type LBMode string

// LB modes.
const (
	// LBInternal: node 0's API servers spread requests over every rank;
	// other nodes run --headless engines.
	LBInternal LBMode = "internal"
	// LBHybrid: every node runs API servers over its own ranks; an external
	// balancer spreads traffic across nodes. Headless nodes do not fit it.
	LBHybrid LBMode = "hybrid"
	// LBExternal: one vllm serve (and API server) per rank.
	LBExternal LBMode = "external"
	// LBHeadless: this node runs engines only.
	LBHeadless LBMode = "headless"
	// LBInvalid: vLLM refuses the combination at start-up.
	LBInvalid LBMode = "invalid"
)

// DPNode is what one node's vllm serve command says about data parallelism.
type DPNode struct {
	Headless bool
	// StartRankSet is an explicit --data-parallel-start-rank (StartRank).
	StartRankSet bool
	StartRank    int
	// LocalSizeSet is an explicit --data-parallel-size-local (LocalSize).
	LocalSizeSet bool
	LocalSize    int
	Size         int
	HybridFlag   bool
	ExternalFlag bool
	// RankSet is an explicit --data-parallel-rank.
	RankSet bool
}

// hybridLBSince: the first release with hybrid LB and its inference.
var hybridLBSince = v0101

// DPLoadBalancing returns the LB mode vLLM infers for one node's command in
// this release, and why. Before hybrid LB existed a start rank only
// positioned headless engines (0.9.x help: "Requires --headless").
func (r Release) DPLoadBalancing(n DPNode) (LBMode, string) {
	switch {
	case n.Headless:
		return LBHeadless, "--headless runs engine cores only"
	case n.RankSet || n.ExternalFlag:
		return LBExternal, "--data-parallel-rank (or --data-parallel-external-lb) selects external LB: one server per rank"
	case r.Version.Less(hybridLBSince):
		return LBInternal, "this release has no hybrid LB; a start rank only matters with --headless"
	}
	if n.HybridFlag && !n.LocalSizeSet {
		return LBInvalid, "vLLM asserts \"data_parallel_size_local must be set to use data_parallel_hybrid_lb\""
	}
	hybrid := n.HybridFlag || (n.StartRankSet && n.StartRank != 0)
	if !hybrid || !n.LocalSizeSet || n.LocalSize == n.Size {
		return LBInternal, "no non-zero start rank on a node with API servers: internal LB"
	}
	if n.LocalSize == 1 {
		return LBExternal, "hybrid LB with one local rank becomes external LB"
	}
	return LBHybrid, "a non-zero --data-parallel-start-rank without --headless infers hybrid LB: this node serves its own ranks, and headless secondaries do not fit"
}

// DPLBSource cites the rules DPLoadBalancing follows.
func DPLBSource() string { return srcDPLB }

// DefaultAPIServers is how many API servers node's vllm serve starts when
// --api-server-count is not given. Releases with the old integer default
// start one; releases with the unset default (0.16.0 read) count any
// explicit --data-parallel-start-rank, 0 included, as hybrid LB and start
// the local DP size instead of the global one.
func (r Release) DefaultAPIServers(n DPNode) (int, string) {
	d := r.Defaults()
	switch {
	case n.Headless:
		return 0, "headless: no API server"
	case !d.APIServerCountAuto:
		return d.APIServerCount, "the release's fixed default"
	case n.RankSet || n.ExternalFlag:
		return 1, "external LB: one API server per rank"
	case n.HybridFlag || n.StartRankSet:
		local := n.LocalSize
		if !n.LocalSizeSet || local < 1 {
			local = 1
		}
		return local, "an explicit --data-parallel-start-rank (even 0) or --data-parallel-hybrid-lb counts as hybrid: API servers = --data-parallel-size-local"
	default:
		return max(n.Size, 1), "internal LB: API servers = --data-parallel-size"
	}
}
