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
//   - unset, on a node that holds whole engines: one per DP rank of the
//     replica's first node (the EP docs' choice). vlaunch writes it
//     because vLLM's own default changed between releases (1, then the
//     DP size);
//   - unset, for an engine spanning nodes (DP = 1): vLLM's default, which
//     is one API server in every release, and nothing is written.
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
