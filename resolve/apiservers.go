package resolve

import (
	"fmt"

	"github.com/vlaunch/vlaunch/vllm"
)

// resolveAPIServers decides how many API-server processes one replica's
// `vllm serve` starts: the one value the generator writes
// (--api-server-count) and the simulation spreads the front end's costs
// over, so that check and the bundle describe one deployment (#27).
//
//   - a release without --api-server-count runs one API server, whatever
//     the spec says (the generator warns that the setting is dropped);
//   - the spec's api_server_count otherwise;
//   - unset, on a node that holds whole engines, in a release whose
//     default follows the DP load-balancing mode (0.15.0 on): vLLM's own
//     default for the command the bundle runs on the replica's first node
//     (vllm.Release.DefaultAPIServers; internal LB: the whole DP size).
//     vLLM 0.24.0's vllm/entrypoints/cli/serve.py (tag ee0da84ab9e0,
//     ServeSubcommand.cmd: "Internal LB: Use full DP size",
//     args.api_server_count = args.data_parallel_size), as 0.15.0's
//     (f176443446f6) through 0.22.1's: one per local rank instead wrote
//     --api-server-count 1 for DP 16 over 16 trays (qa43 F7), one process
//     in front of 16 engines where vLLM itself starts 16;
//   - unset, in an older release (an integer default of 1: vllm/
//     entrypoints/openai/cli_args.py at v0.14.1): one per DP rank of the
//     replica's first node (the EP docs' choice) rather than vLLM's single
//     process. vlaunch writes the count either way, because vLLM's own
//     default changed between releases;
//   - unset, for an engine spanning nodes: vLLM's default for the command
//     written (no --data-parallel-size-local or start rank: internal LB),
//     one API server with DP = 1 in every release, the DP size with DP > 1
//     where the default follows the LB mode; nothing is written;
//   - behind a colocated router (ExternalLB) the count is per DP rank
//     (rankAPIServers).
func (d *Deployment) resolveAPIServers() {
	eng, asked := &d.Engine, d.Engine.APIServersAsked
	if _, ok := d.Release.Flag("api-server-count"); !ok {
		why := fmt.Sprintf("vLLM %s has no --api-server-count: one API server", d.Version.Value)
		from := SourceRelease
		if asked > 0 && asked != 1 {
			from, why = SourceDerived, why+fmt.Sprintf(" (api_server_count %d is not written)", asked)
		}
		eng.APIServers = set(1, from, why)
		return
	}
	if d.ExternalLB() {
		eng.APIServers = d.rankAPIServers(asked)
		return
	}
	if asked > 0 {
		eng.APIServers = set(asked, SourceSpec, "")
		return
	}
	local, spanning := d.firstNodeDPLocal()
	if spanning {
		n, why := d.Release.DefaultAPIServers(vllm.DPNode{Size: d.Layout.DP})
		eng.APIServers = set(max(n, 1), SourceRelease, "an engine spanning nodes: "+why)
		return
	}
	if d.Layout.DP > 1 && d.Release.Defaults().APIServerCountAuto {
		head := vllm.DPNode{Size: d.Layout.DP, LocalSizeSet: true, LocalSize: local}
		n, why := d.Release.DefaultAPIServers(head)
		eng.APIServers = set(max(n, 1), SourceRelease, fmt.Sprintf("vLLM %s's default for the API-server node's command (%s), written as --api-server-count", d.Version.Value, why))
		return
	}
	eng.APIServers = set(local, SourceDerived, fmt.Sprintf("one per DP rank on the API-server node (%d), written as --api-server-count", local))
}

// FirstNodeDPLocal is firstNodeDPLocal: the engines (DP ranks) on a
// replica's first node, the node that serves the API — what the bundle
// writes as its --data-parallel-size-local — and whether one engine spans
// nodes instead.
func (d *Deployment) FirstNodeDPLocal() (local int, spanning bool) { return d.firstNodeDPLocal() }

// firstNodeDPLocal is the number of engines on a replica's first node, as
// Place puts them (whole TP × PP engines, node after node, every replica
// alike), and whether one engine spans nodes instead. Only node 0's
// arithmetic is needed: placing every node costs O(nodes) on each layout
// the auto search and plan try.
func (d *Deployment) firstNodeDPLocal() (local int, spanning bool) {
	l := d.Layout
	g := l.GPUsPerNode
	if d.Spec != nil && len(d.Nodes) > 0 {
		g = d.Nodes[0].GPUs
	}
	per := max(l.TP*l.PP, 1)
	if per > g {
		return 0, true
	}
	return max(1, min(g/per, l.DP)), false
}

// ExternalLB reports whether the deployment's DP ranks run behind its
// router in vLLM's external DP load balancing: a colocated deployment
// with a top-level router and DP > 1, which generate writes as one `vllm
// serve --data-parallel-rank R` per rank (vllm.ExtLBFlags), each with API
// server(s) of its own in front of its own engine alone.
func (d *Deployment) ExternalLB() bool {
	return d.Router != nil && d.PD == nil && d.Layout.DP > 1
}

// RankAPIServers is how many API-server processes each DP rank's `vllm
// serve` runs behind the router (ExternalLB): Engine.APIServers, which
// resolve makes per rank there — the spec's api_server_count, written on
// every rank, else one. The generator writes it and the simulation gives
// each rank's front end that many processes: the one place the count is
// decided. Without a router it is the replica's count (Engine.APIServers).
func (d *Deployment) RankAPIServers() int { return max(1, d.Engine.APIServers.Value) }

// rankAPIServers is the per-rank count behind the router, asked the
// spec's api_server_count (0: unset). vLLM 0.11.0 (vllm/entrypoints/cli/
// serve.py at the tag b8b302cde434: ServeSubcommand.cmd runs
// run_multi_api_server for a count above 1, whose `assert external_dp_lb
// or hybrid_dp_lb or dp_rank == 0` holds for every rank with
// --data-parallel-rank) and 0.16.0-0.22.1 (serve.py detects external LB
// from --data-parallel-rank and defaults an unset count to 1) run the
// written count on each rank, and one when none is written.
func (d *Deployment) rankAPIServers(asked int) Setting[int] {
	dp := d.Layout.DP
	if asked > 0 {
		return set(asked, SourceSpec, fmt.Sprintf("per DP rank behind the router: written as --api-server-count %d on each of the %d ranks' `vllm serve --data-parallel-rank R` (%d API servers in all, each in front of its own rank's engine)", asked, dp, asked*dp))
	}
	return set(1, SourceRelease, fmt.Sprintf("per DP rank behind the router: each of the %d ranks' `vllm serve --data-parallel-rank R` runs vLLM's default of one API server in front of its own engine (nothing written; %d in all)", dp, dp))
}
