// Package search is the layout search of `parallelism: auto`: every layout
// the hosts allow and vlaunch can generate, run through the same memory and
// performance models as `vlaunch check`, ranked by a documented total order;
// the chosen one is reported with EST301.
package search

import (
	"fmt"
	"math"
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
	// Replicas is how many independent copies of the TP × PP × DP engine
	// run, each on its own nodes (0: one).
	Replicas int `json:"replicas,omitempty"`
	// All2All is the backend in effect for this layout, `auto` resolved per
	// candidate; "naive dispatch" for DP > 1 without EP; "" when MoE tokens
	// are not exchanged (DP = 1 or a dense model).
	All2All    string  `json:"all2all_backend,omitempty"`
	WeightsGiB float64 `json:"weights_gib_per_gpu"`
	KVCacheGiB float64 `json:"kv_cache_gib_per_gpu"`
	// Fits is the memory verdict (no memory error finding).
	Fits bool `json:"fits"`
	// MaxConcurrency is how many max_model_len sessions the layout holds
	// in KV (memory.Capacity): how close a layout that does not fit comes.
	MaxConcurrency int `json:"max_concurrency"`
	// DecodeTokPerS is predicted output tokens/s at the workload's
	// concurrency: steady decoding, which for a closed loop does not depend
	// on the simulation (a Bounded layout has check's figure); 0 for a
	// Bounded layout under an open loop, whose concurrency only the
	// simulation gives.
	DecodeTokPerS float64 `json:"decode_output_tokens_per_s"`
	SLOPassed     int     `json:"slos_passed"`
	SLOTotal      int     `json:"slos_total"`
	// Feasible is Fits and every SLO passing.
	Feasible bool `json:"feasible"`
	// Bounded marks a layout the search did not simulate: its optimistic
	// bound (slo.Optimistic) already ranked below the chosen layout, so
	// SLOPassed and Feasible are that bound — at best what a check would
	// say.
	Bounded bool `json:"bounded,omitempty"`
	// Unsettled marks a Bounded layout whose bound still ranked above the
	// chosen one when the search's work budget ran out
	// (searchScenarioBudget): it might have beaten the chosen layout.
	Unsettled bool `json:"unsettled,omitempty"`
}

// layout is the candidate as a layout on the given hosts.
func (c Candidate) layout(nodes, perNode int) input.Layout {
	return input.Layout{TP: c.TP, PP: c.PP, DP: c.DP, EP: c.EP, Replicas: c.ReplicaCount(), Nodes: nodes, GPUsPerNode: perNode}
}

// ReplicaCount is the number of independent replicas (at least 1).
func (c Candidate) ReplicaCount() int { return max(1, c.Replicas) }

// EngineGPUs is the GPUs of one replica's engine (TP × PP × DP).
func (c Candidate) EngineGPUs() int { return c.TP * c.PP * c.DP }

// Name is the candidate in the report's notation ("TP 8 · PP 1 · DP 2 · EP
// on", "… × 4 replicas" for independent replicas).
func (c Candidate) Name() string {
	name := fmt.Sprintf("TP %d · PP %d · DP %d · EP %s", c.TP, c.PP, c.DP, textfmt.OnOff(c.EP))
	if r := c.ReplicaCount(); r > 1 {
		name += fmt.Sprintf(" × %d replicas", r)
	}
	return name
}

// PinYAML is the parallelism mapping that pins this layout in a spec.
func (c Candidate) PinYAML() string {
	replicas := ""
	if r := c.ReplicaCount(); r > 1 {
		replicas = fmt.Sprintf(", replicas: %d", r)
	}
	return fmt.Sprintf("parallelism: {tensor: %d, pipeline: %d, data: %d, expert: %t%s}", c.TP, c.PP, c.DP, c.EP, replicas)
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

// Rank evaluates the layouts of Layouts for base's hosts that vlaunch can
// generate (Placeable) (base.Layout gives Nodes and GPUsPerNode; its TP,
// PP and DP are ignored) with the same memory model (memory.Estimate and
// its findings) and performance model (slo.Evaluate, with a shorter
// simulation and without the advice, which does not change a verdict) as
// `vlaunch check`, and returns them best first:
//
//  1. memory fits and every SLO passes;
//  2. memory fits;
//  3. more SLOs passing; then, among layouts that do not fit, more
//     max_model_len sessions held in KV (the closest to fitting: their
//     throughput assumes sessions that cannot all run);
//  4. higher predicted output throughput at the workload's concurrency;
//  5. fewer GPUs per engine (TP × PP × DP: more independent replicas, a
//     smaller failure domain);
//  6. fewer GPUs per model copy (TP × PP: simpler, fewer collectives);
//  7. then TP, PP ascending and EP off before on, so the order is total.
//
// Branch and bound keeps the work bounded on large clusters: every layout
// gets its memory verdict and slo.Optimistic's bound on the other keys;
// layouts are simulated best bound first until the best simulated one
// ranks above every bound left, or the search's budget is spent
// (searchScenarioBudget). The chosen layout (first) and every simulated
// one carry check's figures; the rest carry their bound (Bounded) and
// keep their place by it: below the chosen one, unless the budget ran out
// first (Unsettled).
//
// Rank is pure: base is not modified.
func Rank(base *input.Input) []Candidate {
	layouts := candidateLayouts(base)
	es := make([]*entry, len(layouts))
	for i, lay := range layouts {
		es[i] = bound(base.WithLayout(lay))
	}
	sort.SliceStable(es, func(i, j int) bool { return better(es[i].Candidate, es[j].Candidate) })
	var best *entry
	spent := 0
	for _, e := range es {
		if best != nil && (!better(e.Candidate, best.Candidate) || spent >= searchScenarioBudget) {
			break // e's bound, and every later one, ranks below best's figures (or the budget is spent)
		}
		spent += e.simulate()
		if best == nil || better(e.Candidate, best.Candidate) {
			best = e
		}
	}
	out := make([]Candidate, 0, len(es))
	for _, e := range es {
		if e == best {
			continue
		}
		e.Unsettled = e.Bounded && better(e.Candidate, best.Candidate)
		out = append(out, e.Candidate)
	}
	sort.SliceStable(out, func(i, j int) bool { return better(out[i], out[j]) })
	if best != nil {
		out = append([]Candidate{best.Candidate}, out...)
	}
	for i := range out {
		if math.IsInf(out[i].DecodeTokPerS, 1) {
			out[i].DecodeTokPerS = 0 // an open loop's bound claims none (and JSON has no infinity)
		}
	}
	return out
}

// entry is a layout on its way through Rank: its input and memory
// half, and the candidate with its bound until it is simulated.
type entry struct {
	Candidate
	in  input.Input
	mem memory.Report
}

// bound is the memory half of the check and slo.Optimistic's bound of the
// performance half, as a candidate marked Bounded.
func bound(in input.Input) *entry {
	e := &entry{in: in, mem: memory.Estimate(&in)}
	fits := !memory.Findings(&in, &e.mem).HasErrors()
	l := in.Layout
	b := slo.Optimistic(&in, &e.mem)
	e.Candidate = Candidate{TP: l.TP, PP: l.PP, DP: l.DP, EP: l.EP, Replicas: oneIsZero(l.ReplicaCount()), All2All: a2aLabel(&in),
		WeightsGiB: e.mem.PerGPU.WeightsGiB, KVCacheGiB: e.mem.PerGPU.KVCacheGiB, Fits: fits, MaxConcurrency: e.mem.Capacity.MaxConcurrency,
		DecodeTokPerS: b.DecodeTokPerS, SLOPassed: b.Passing, SLOTotal: b.Total, Bounded: true}
	e.Feasible = fits && b.Passing == b.Total
	return e
}

// searchScenarioBudget bounds the search's simulations: scenarios
// simulated over all layouts (a layout costs one per input length its
// SLOs name). The reference's search spends 6; a spec with 16 TTFT
// lengths on a cluster where idle-system bounds prune little would spend
// hundreds. Past it the best simulated layout is chosen, and the layouts
// whose bound still ranked above it are marked Unsettled.
var searchScenarioBudget = 96 // a variable for tests

// simulate replaces the bound by check's figures (the performance half
// with the search's shorter simulation) and returns the scenarios it
// simulated.
func (e *entry) simulate() int {
	r := slo.Evaluate(&e.in, &e.mem, slo.Options{Seed: 1, Requests: searchRequests, Replications: 1, NoAdvice: true})
	e.Bounded, e.SLOPassed, e.SLOTotal, e.DecodeTokPerS = false, 0, len(r.SLO), 0
	if r.Performance != nil {
		e.DecodeTokPerS = r.Performance.Decode.Point.OutputTokPerS
	}
	for _, v := range r.SLO {
		if v.Verdict == slo.VerdictPass {
			e.SLOPassed++
		}
	}
	e.Feasible = e.Fits && e.SLOPassed == e.SLOTotal
	if r.Performance == nil {
		return 1
	}
	return max(1, len(r.Performance.Simulations))
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
	case !a.Fits && a.MaxConcurrency != b.MaxConcurrency:
		return a.MaxConcurrency > b.MaxConcurrency
	case a.DecodeTokPerS != b.DecodeTokPerS:
		return a.DecodeTokPerS > b.DecodeTokPerS
	case a.EngineGPUs() != b.EngineGPUs():
		return a.EngineGPUs() < b.EngineGPUs()
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
	if n := unsettled(cands); n > 0 {
		verdict += fmt.Sprintf("; the search's work budget ran out with %d layouts unsimulated whose optimistic bound could still beat it", n)
	}
	d := diag.Diagnostic{Code: CodeLayoutChosen, Severity: diag.Info, Path: "parallelism",
		Message: fmt.Sprintf("parallelism: auto chose %s out of %d layouts (%s; predicted %.0f output tokens/s at the workload's concurrency)",
			best.Name(), len(cands), verdict, best.DecodeTokPerS),
		Hint: "to pin it, write " + best.PinYAML()}
	return in, &Result{Candidates: cands, Chosen: best}, d
}

// unsettled counts the Unsettled candidates.
func unsettled(cs []Candidate) int {
	n := 0
	for _, c := range cs {
		if c.Unsettled {
			n++
		}
	}
	return n
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

// Layouts lists the layouts of the search on nodes × perNode GPUs: those
// of Enumerate for one replica on every whole share of the nodes — one
// replica on all of them, two on half each, … one per node — each using
// every GPU. Expert parallelism over an EP group of one rank (TP × DP = 1)
// changes nothing and is left out. `parallelism: auto` and `vlaunch plan`
// both search these (Placeable keeps the ones a release can place).
func Layouts(nodes, perNode int, m *catalog.Model) []input.Layout {
	nodes, perNode = max(nodes, 1), max(perNode, 1)
	var out []input.Layout
	for r := 1; r <= nodes; r++ {
		if nodes%r != 0 {
			continue
		}
		for _, c := range Enumerate(nodes/r, perNode, m) {
			c.Replicas, c.Nodes = r, nodes
			if c.EP && c.EPSize() == 1 {
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

// Placeable keeps the layouts resolve.Place puts on hosts (each node's GPU
// count) with release rel: the one rule `vlaunch generate` applies, so
// neither the search nor plan offers a layout generate refuses.
func Placeable(ls []input.Layout, hosts []int, rel vllm.Release) []input.Layout {
	out := ls[:0]
	for _, c := range ls {
		if _, err := resolve.Place(c, hosts, rel); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// candidateLayouts are the layouts the search evaluates: Layouts for the
// hosts that Placeable keeps.
func candidateLayouts(in *input.Input) []input.Layout {
	l := in.Layout
	return Placeable(Layouts(l.Nodes, l.GPUsPerNode, in.Model), in.HostGPUs(), in.Release())
}

// oneIsZero is a replica count as Candidate stores it: 0 for one.
func oneIsZero(r int) int {
	if r <= 1 {
		return 0
	}
	return r
}
