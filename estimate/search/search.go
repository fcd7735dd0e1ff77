// Package search is the layout search of `parallelism: auto`: every layout
// the hosts allow and vlaunch can generate, run through the same memory and
// performance models as `vlaunch check`, ranked by a documented total order;
// the chosen one is reported with EST301.
package search

import (
	"fmt"
	"sort"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// CodeLayoutChosen reports the layout the search chose for `parallelism: auto`.
const CodeLayoutChosen = codes.EstLayoutChosen

// searchRequests is the number of simulated requests per scenario while
// ranking candidates: enough for stable percentiles to compare layouts, a
// fraction of a full check's simulation so the whole search stays well
// under two seconds. The chosen layout is then re-checked in full.
const searchRequests = 500

// Candidate is one layout the search evaluated, with the figures it was
// ranked by.
type Candidate struct {
	TP int  `json:"tp"`
	PP int  `json:"pp"`
	DP int  `json:"dp"`
	EP bool `json:"ep"`
	// All2All is the backend in effect for this layout, `auto` resolved per
	// candidate; "naive dispatch" for DP > 1 without EP; "" when MoE tokens
	// are not exchanged (DP = 1 or a dense model).
	All2All    string  `json:"all2all_backend,omitempty"`
	WeightsGiB float64 `json:"weights_gib_per_gpu"`
	KVCacheGiB float64 `json:"kv_cache_gib_per_gpu"`
	// Fits is the memory verdict (no memory error finding).
	Fits bool `json:"fits"`
	// DecodeTokPerS is predicted output tokens/s at the workload's concurrency.
	DecodeTokPerS float64 `json:"decode_output_tokens_per_s"`
	SLOPassed     int     `json:"slos_passed"`
	SLOTotal      int     `json:"slos_total"`
	// Feasible is Fits and every SLO passing.
	Feasible bool `json:"feasible"`
}

// layout is the candidate as a layout on the given hosts.
func (c Candidate) layout(nodes, perNode int) input.Layout {
	return input.Layout{TP: c.TP, PP: c.PP, DP: c.DP, EP: c.EP, Nodes: nodes, GPUsPerNode: perNode}
}

// Name is the candidate in the report's notation ("TP 8 · PP 1 · DP 2 · EP on").
func (c Candidate) Name() string {
	return fmt.Sprintf("TP %d · PP %d · DP %d · EP %s", c.TP, c.PP, c.DP, textfmt.OnOff(c.EP))
}

// PinYAML is the parallelism mapping that pins this layout in a spec.
func (c Candidate) PinYAML() string {
	return fmt.Sprintf("parallelism: {tensor: %d, pipeline: %d, data: %d, expert: %t}", c.TP, c.PP, c.DP, c.EP)
}

// Result is the `layout_search` section of a report: every candidate, best
// first, and the chosen one (the first).
type Result struct {
	Candidates []Candidate `json:"candidates"`
	Chosen     Candidate   `json:"chosen"`
}

// Enumerate lists the layouts that use all nodes × perNode GPUs:
//
//   - TP is a power of two dividing perNode (a TP group never spans nodes)
//     and the model's attention heads (vLLM requires heads % TP == 0);
//   - PP is 1, or, only when TP = perNode, a divisor of the node count (a
//     pipeline spans whole nodes, one stage per node);
//   - DP = nodes × perNode / (TP × PP);
//   - EP off, and for MoE models also on (EP changes nothing for dense ones).
//
// The order is TP, then PP ascending, EP off before on.
func Enumerate(nodes, perNode int, m *catalog.Model) []input.Layout {
	moe := m != nil && m.IsMoE()
	var out []input.Layout
	total := nodes * perNode
	for tp := 1; tp <= perNode; tp *= 2 {
		if perNode%tp != 0 || m.TPSplitProblem(tp) != "" {
			continue
		}
		for pp := 1; pp <= nodes; pp++ {
			if nodes%pp != 0 || (pp > 1 && tp != perNode) {
				continue
			}
			for _, ep := range []bool{false, true} {
				if ep && !moe {
					continue
				}
				out = append(out, input.Layout{TP: tp, PP: pp, DP: total / (tp * pp), EP: ep, Nodes: nodes, GPUsPerNode: perNode})
			}
		}
	}
	return out
}

// Rank evaluates every layout of Enumerate for base's hosts that vlaunch
// can generate (resolve.Place) (base.Layout gives Nodes and GPUsPerNode;
// its TP/PP/DP are ignored) with the same memory model (memory.Estimate and
// its findings) and performance model (slo.Evaluate, with a shorter
// simulation and without the advice, which does not change a verdict) as
// `vlaunch check`, and returns them best first:
//
//  1. memory fits and every SLO passes;
//  2. memory fits;
//  3. more SLOs passing;
//  4. higher predicted output throughput at the workload's concurrency;
//  5. fewer GPUs per engine (TP × PP: simpler, fewer collectives);
//  6. then TP, PP ascending and EP off before on, so the order is total.
//
// Rank is pure: base is not modified.
func Rank(base *input.Input) []Candidate {
	layouts := candidateLayouts(base)
	out := make([]Candidate, len(layouts))
	for i, lay := range layouts {
		out[i] = evaluate(base.WithLayout(lay))
	}
	sort.SliceStable(out, func(i, j int) bool { return better(out[i], out[j]) })
	return out
}

// evaluate runs both halves of the check on one candidate input.
func evaluate(in input.Input) Candidate {
	m := memory.Estimate(&in)
	fits := !memory.Findings(&in, &m).HasErrors()
	r := slo.Evaluate(&in, &m, slo.Options{Seed: 1, Requests: searchRequests, Replications: 1, NoAdvice: true})
	l := in.Layout
	c := Candidate{TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP, All2All: a2aLabel(&in),
		WeightsGiB: m.PerGPU.WeightsGiB, KVCacheGiB: m.PerGPU.KVCacheGiB, Fits: fits,
		SLOTotal: len(r.SLO)}
	if r.Performance != nil {
		c.DecodeTokPerS = r.Performance.Decode.Point.OutputTokPerS
	}
	for _, v := range r.SLO {
		if v.Verdict == slo.VerdictPass {
			c.SLOPassed++
		}
	}
	c.Feasible = fits && c.SLOPassed == c.SLOTotal
	return c
}

// better is the ranking of Rank.
func better(a, b Candidate) bool {
	switch {
	case a.Feasible != b.Feasible:
		return a.Feasible
	case a.Fits != b.Fits:
		return a.Fits
	case a.SLOPassed != b.SLOPassed:
		return a.SLOPassed > b.SLOPassed
	case a.DecodeTokPerS != b.DecodeTokPerS:
		return a.DecodeTokPerS > b.DecodeTokPerS
	case a.TP*a.PP != b.TP*b.PP:
		return a.TP*a.PP < b.TP*b.PP
	case a.TP != b.TP:
		return a.TP < b.TP
	case a.PP != b.PP:
		return a.PP < b.PP
	}
	return !a.EP && b.EP
}

// Choose runs Rank on base and returns the input for the chosen layout,
// the search section and an info finding naming the choice.
func Choose(base *input.Input) (input.Input, *Result, diag.Diagnostic) {
	cands := Rank(base)
	if len(cands) == 0 {
		return *base, nil, diag.Diagnostic{Code: CodeLayoutChosen, Severity: diag.Error, Path: "parallelism",
			Message: "parallelism: auto found no layout for these hosts", Hint: "pin a layout: parallelism: {tensor: .., pipeline: .., data: .., expert: ..}"}
	}
	best := cands[0]
	in := base.WithLayout(best.layout(max(base.Layout.Nodes, 1), max(base.Layout.GPUsPerNode, 1)))
	verdict := "the best available, but none fits with every SLO passing"
	if best.Feasible {
		verdict = "it fits and meets every SLO"
	}
	d := diag.Diagnostic{Code: CodeLayoutChosen, Severity: diag.Info, Path: "parallelism",
		Message: fmt.Sprintf("parallelism: auto chose %s out of %d layouts (%s; predicted %.0f output tokens/s at the workload's concurrency)",
			best.Name(), len(cands), verdict, best.DecodeTokPerS),
		Hint: "to pin it, write " + best.PinYAML()}
	return in, &Result{Candidates: cands, Chosen: best}, d
}

// a2aLabel names the MoE token exchange of a layout for the table:
// the backend in effect, or vLLM's naive dispatch/combine (an all-gather of
// every DP rank's tokens) when DP > 1 without expert parallelism, which the
// step-time model charges like allgather_reducescatter.
func a2aLabel(in *input.Input) string {
	if in.All2AllBackend == "" && in.Model.IsMoE() && in.Layout.DP > 1 {
		return vllm.NaiveDispatch
	}
	return in.All2AllBackend
}

// candidateLayouts are the layouts the search evaluates: Enumerate
// for the hosts, kept only where vlaunch can generate them with the
// release (resolve.Place), so `parallelism: auto` never chooses a layout
// `generate` refuses.
func candidateLayouts(in *input.Input) []input.Layout {
	l := in.Layout
	all := Enumerate(max(l.Nodes, 1), max(l.GPUsPerNode, 1), in.Model)
	hosts, rel := in.HostGPUs(), in.Release()
	out := all[:0]
	for _, c := range all {
		if _, err := resolve.Place(c, hosts, rel); err == nil {
			out = append(out, c)
		}
	}
	return out
}
