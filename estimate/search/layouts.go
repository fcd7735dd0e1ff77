package search

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/layouts"
	"github.com/vlaunch/vlaunch/vllm"
)

// Enumerate is layouts.Enumerate: the layouts of one engine on nodes ×
// perNode GPUs.
func Enumerate(nodes, perNode int, m *catalog.Model) []input.Layout {
	return layouts.Enumerate(nodes, perNode, m)
}

// Layouts is layouts.All: the layouts of the search on nodes × perNode
// GPUs, independent replicas included.
func Layouts(nodes, perNode int, m *catalog.Model) []input.Layout {
	return layouts.All(nodes, perNode, m)
}

// Placeable is layouts.Placeable: the layouts resolve.Place puts on hosts.
func Placeable(ls []input.Layout, hosts []int, rel vllm.Release) []input.Layout {
	return layouts.Placeable(ls, hosts, rel)
}

// Servable is layouts.Servable: the layouts vLLM starts for m's weights.
func Servable(ls []input.Layout, m *catalog.Model, fromCheckpoint bool) []input.Layout {
	return layouts.Servable(ls, m, fromCheckpoint)
}

// DCPFit is layouts.DCPFit: the layouts whose TP splits into decode
// context parallel groups of dcp.
func DCPFit(ls []input.Layout, m *catalog.Model, dcp int) []input.Layout {
	return layouts.DCPFit(ls, m, dcp)
}

// candidateLayouts are the layouts the search evaluates (layouts.Candidates).
func candidateLayouts(in *input.Input) []input.Layout { return layouts.Candidates(in) }

// oneIsZero is a replica count as Candidate stores it: 0 for one.
func oneIsZero(r int) int {
	if r <= 1 {
		return 0
	}
	return r
}
