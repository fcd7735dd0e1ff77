package report

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/plan"
)

// fewestHeading is the section --objective fewest-gpus adds before the
// list.
const fewestHeading = "Fewest GPUs that meet every SLO (whole nodes: the first of hardware.nodes, then the first two, …)"

// listHeading is the list's heading: how it is ranked.
func listHeading(r *plan.Result) string {
	if r.Fewest != nil && r.Fewest.Found() {
		return "Best candidates (every SLO met; fewest GPUs first, then output tokens/s per GPU)"
	}
	return "Best candidates (fewest SLOs failing, then fewest predicted to miss, then most met, then closest to the rest, then output tokens/s per GPU)"
}

// fewestLines say what --objective fewest-gpus tried, subset by subset,
// and what it found (nil for the default objective).
func fewestLines(r *plan.Result) []string {
	f := r.Fewest
	if f == nil {
		return nil
	}
	var out []string
	for _, t := range f.Tried {
		what := fmt.Sprintf("%d node%s (%s, %d GPUs)", len(t.Nodes), plural(len(t.Nodes)), strings.Join(t.Nodes, ", "), t.GPUs)
		if t.Error != "" {
			out = append(out, what+": cannot be planned: "+t.Error)
			continue
		}
		out = append(out, fmt.Sprintf("%s: %d of the %d listed meet every SLO", what, t.Passing, t.Listed))
	}
	if f.Found() && f.Nodes == f.OfNodes {
		out = append(out, fmt.Sprintf("→ it takes all %d nodes (%d GPUs): the list is the candidates on them that meet every SLO, fewest GPUs first", f.OfNodes, f.OfGPUs))
	} else if f.Found() {
		used := f.Tried[len(f.Tried)-1].Nodes
		out = append(out, fmt.Sprintf("→ %d of the %d nodes (%d of the %d GPUs) suffice: the list is the candidates on them that meet every SLO, fewest GPUs first; --apply writes a spec with only %s",
			f.Nodes, f.OfNodes, f.GPUs, f.OfGPUs, strings.Join(used, ", ")))
	} else {
		out = append(out, fmt.Sprintf("→ no candidate meets every SLO, not even on all %d nodes (%d GPUs): the list is the all-node ranking, closest first", f.OfNodes, f.OfGPUs))
	}
	return out
}
