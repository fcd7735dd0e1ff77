package plan

import (
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// The objectives plan ranks by (--objective).
const (
	// ObjectivePerGPU ranks every candidate on all the spec's nodes by
	// SLOs met, then closeness to the rest, then output tokens/s per GPU.
	ObjectivePerGPU = "per-gpu-throughput"
	// ObjectiveFewestGPUs looks for the fewest GPUs that meet every SLO:
	// whole nodes, the first k of hardware.nodes for k = 1, 2, …, each
	// planned as ObjectivePerGPU plans all of them, until a candidate
	// passes every SLO; those candidates are ranked by GPUs used, then as
	// ObjectivePerGPU ranks.
	ObjectiveFewestGPUs = "fewest-gpus"
)

// Objectives are the values --objective takes, the default first.
var Objectives = []string{ObjectivePerGPU, ObjectiveFewestGPUs}

// FewestGPUs is what ObjectiveFewestGPUs tried and found.
type FewestGPUs struct {
	// Tried are the node subsets planned, fewest nodes first.
	Tried []NodeSubset `json:"tried"`
	// Nodes and GPUs are the fewest that meet every SLO (0: no subset,
	// all the nodes included, has a candidate that does); OfNodes and
	// OfGPUs are the spec's.
	Nodes   int `json:"nodes"`
	GPUs    int `json:"gpus"`
	OfNodes int `json:"of_nodes"`
	OfGPUs  int `json:"of_gpus"`
}

// Found reports whether some subset meets every SLO.
func (f *FewestGPUs) Found() bool { return f.Nodes > 0 }

// NodeSubset is one subset of the nodes planned.
type NodeSubset struct {
	Nodes []string `json:"nodes"`
	GPUs  int      `json:"gpus"`
	// Listed is how many candidates its plan listed (at most --top),
	// Passing how many of those meet every SLO.
	Listed  int `json:"listed"`
	Passing int `json:"passing"`
	// Error is why the subset could not be planned (resolve refuses it).
	Error string `json:"error,omitempty"`
}

// PlanFewestGPUs plans for ObjectiveFewestGPUs: the first node, then the
// first two, and so on (the spec's hardware.nodes order, whole nodes),
// each through Plan as the default objective plans the spec (the same
// enumeration, bounds, simulations and verification), until one's list
// has a candidate that meets every SLO. A subset short of all the nodes
// is the spec with only those nodes and `parallelism: auto` (a P/D spec's
// pools name nodes the subset may lack: its candidates are the subset's
// own, colocated and P/D); its candidates carry the nodes (Settings.Nodes)
// so that --apply writes a spec with only them. The result is that
// subset's plan, its list cut to the candidates that meet every SLO and
// ranked by GPUs used, then as Plan ranks; when none does on any subset,
// the plan of all the nodes as Plan gives it, and Fewest says so. On a
// subset short of all the nodes the spec's own settings (a layout of all
// of them) are not evaluated (Own is nil), and the sensitivity is kept
// only when the re-ranking left the subset plan's #1 first.
func PlanFewestGPUs(d *resolve.Deployment, opt Options) *Result {
	nodes := d.Spec.Hardware.Nodes
	f := &FewestGPUs{OfNodes: len(nodes), OfGPUs: subjectOf(d).GPUs}
	_, own, _ := colocatedBase(d)
	var res *Result
	for k := 1; k <= len(nodes); k++ {
		sub, o := d, opt
		if k < len(nodes) {
			var err error
			if sub, err = nodeSubset(d, k); err != nil {
				f.Tried = append(f.Tried, NodeSubset{Nodes: nodeNames(nodes[:k]), GPUs: gpusOf(nodes[:k]), Error: err.Error()})
				continue
			}
			o.nodes, o.sourceOwn = strings.Join(nodeNames(nodes[:k]), ","), &own
		}
		r := Plan(sub, o)
		pass := passingAll(r.Top)
		f.Tried = append(f.Tried, NodeSubset{Nodes: nodeNames(nodes[:k]), GPUs: gpusOf(nodes[:k]), Listed: len(r.Top), Passing: len(pass)})
		res = r
		if len(pass) > 0 {
			if pass[0].Settings.String() != r.Top[0].Settings.String() {
				res.Sensitivity = nil // probed on the plan's #1, which the re-ranking moved
			}
			res.Top = pass
			f.Nodes, f.GPUs = k, gpusOf(nodes[:k])
			break
		}
	}
	if res == nil { // no subset resolves, all the nodes included
		res = Plan(d, opt)
	}
	if f.Nodes > 0 && f.Nodes < len(nodes) {
		res.Subject, res.OwnSettings, res.Own = subjectOf(d), own, nil
	}
	res.Objective, res.Fewest = ObjectiveFewestGPUs, f
	return res
}

// nodeSubset is d on its first k nodes, with `parallelism: auto` and no
// disaggregation block, resolved with d's parts.
func nodeSubset(d *resolve.Deployment, k int) (*resolve.Deployment, error) {
	c := *d.Spec
	c.Hardware.Nodes = append([]spec.Node(nil), d.Spec.Hardware.Nodes[:k]...)
	c.Disaggregation = nil
	c.Parallelism = spec.Parallelism{Auto: true}
	return resolve.Assemble(&c, d.Parts())
}

// passingAll are the candidates of top that meet every SLO, ranked by
// GPUs used, then in top's order (Plan's ranking), renumbered.
func passingAll(top []Candidate) []Candidate {
	var out []Candidate
	for _, c := range top {
		if c.MeetsAll() {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].GPUs < out[j].GPUs })
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

func nodeNames(ns []spec.Node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Name)
	}
	return out
}

func gpusOf(ns []spec.Node) int {
	n := 0
	for _, x := range ns {
		n += x.GPUs
	}
	return n
}
