// Package search is the layout search of `parallelism: auto`: every layout
// the hosts allow and vlaunch can generate, run through the same memory and
// performance models as `vlaunch check`, ranked by a documented total order;
// the chosen one is reported with EST301.
package search

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/vllm"
)

// CodeLayoutChosen reports the layout the search chose for `parallelism: auto`.
const CodeLayoutChosen = codes.EstLayoutChosen

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
	// Queues marks a layout that fits but whose KV cache does not hold
	// every session at once (EST103, a warning: vLLM queues the rest and
	// preempts): its simulation carries the cost, and it ranks by its
	// verdicts and simulated throughput like any other, as plan ranks it.
	Queues bool `json:"queues,omitempty"`
	// MaxConcurrency is how many max_model_len sessions the layout holds
	// in KV (memory.Capacity): how close a layout that does not fit comes.
	MaxConcurrency int `json:"max_concurrency"`
	// DecodeTokPerS is predicted output tokens/s at the workload's
	// concurrency: steady decoding, which for a closed loop does not depend
	// on the simulation (a Bounded layout has check's figure); 0 for a
	// Bounded layout under an open loop, whose concurrency only the
	// simulation gives.
	DecodeTokPerS float64 `json:"decode_output_tokens_per_s"`
	// ServedTokPerS is the serving simulation's output tokens/s at the
	// workload (the run a throughput SLO is judged on: check's for a
	// Confirmed layout, the shorter ranking run's otherwise), which is
	// what orders layouts whose verdicts tie (slo.Score's shortfall);
	// steady decode (DecodeTokPerS) can order them the other way. 0 for a
	// Bounded layout: no run.
	ServedTokPerS float64 `json:"served_output_tokens_per_s,omitempty"`
	SLOPassed     int     `json:"slos_passed"`
	SLOTotal      int     `json:"slos_total"`
	// Feasible is Fits and every SLO passing.
	Feasible bool `json:"feasible"`
	// Bounded marks a layout the search did not simulate, or whose
	// ranking run was cut short at its work ceiling before it measured
	// enough requests to say anything: SLOPassed and Feasible are its
	// optimistic bound (slo.Optimistic) — at best what a check would say.
	Bounded bool `json:"bounded,omitempty"`
	// Confirmed marks figures from check's own evaluation of the layout
	// (Rank's confirmation, with the report's slo.Options): always the
	// chosen layout's, so its SLOs passed are the report's PASS count, and
	// those of the best few by their ranking runs (confirmTop) whose bound
	// could beat it, which check's run ranks at most equal to it. A
	// simulated layout not Confirmed carries the search's shorter ranking
	// run, which ranked below a confirmed layout.
	Confirmed bool `json:"confirmed,omitempty"`
	// Unsettled marks a Bounded layout whose bound still ranks above the
	// chosen one: the search's work budget (searchScenarioBudget) ran out
	// before it was simulated, or its ranking run was cut short and it
	// was not among the few confirmed. It might have beaten the chosen
	// layout.
	Unsettled bool `json:"unsettled,omitempty"`
	// SLOFailed is how many SLOs fail (the others not passing are
	// uncertain): fewer rank first (slo.Score). A Bounded layout's is the
	// fewest its simulation could fail.
	SLOFailed int `json:"slos_failed"`
	// score is what the layout ranks by among those that fit: plan's
	// ranking (slo.Score) of its verdicts and its simulated output
	// tokens/s per GPU (a Bounded layout's: slo.Bound.Score).
	score slo.Score
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

// better is the ranking of Rank: a layout that fits memory first (vLLM
// refuses to start most that do not: EST101, EST102; plan keeps none of
// them), those that do not by how many max_model_len sessions they hold;
// then plan's ranking (slo.Score: fewest SLOs failing, fewest whose point
// prediction misses its target, most passing, the smallest shortfall, the
// most simulated output tokens/s per GPU), so that
// check's `parallelism: auto` and plan never order the same layouts
// differently; then the fewest GPUs per engine and per model copy, TP and
// PP ascending, EP off first, so the order is total.
func better(a, b Candidate) bool {
	switch {
	case a.Fits != b.Fits:
		return a.Fits
	case !a.Fits && a.MaxConcurrency != b.MaxConcurrency:
		return a.MaxConcurrency > b.MaxConcurrency
	case a.score.Better(b.score):
		return true
	case b.score.Better(a.score):
		return false
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

// Choose runs Rank on base, confirming with check's options (the report's
// slo.Options, so that the chosen row's figures are the report's), and
// returns the input for the chosen layout, the search section and an info
// finding naming the choice.
func Choose(base *input.Input, check slo.Options) (input.Input, *Result, diag.Diagnostic) {
	in, res, d, _ := ChooseConfirmed(base, check)
	return in, res, d
}

// ChooseConfirmed is Choose, with check's own evaluation of the chosen
// layout (the search's confirmation of it, advice included: nil when no
// layout was found): the command hands it to the report's performance
// half, which then does not evaluate the same layout again.
func ChooseConfirmed(base *input.Input, check slo.Options) (input.Input, *Result, diag.Diagnostic, *Confirmation) {
	cands, chosen := rank(base, check)
	if len(cands) == 0 {
		return *base, nil, diag.Diagnostic{Code: CodeLayoutChosen, Severity: diag.Error, Path: "parallelism",
			Message: "parallelism: auto found no layout for these hosts", Hint: "pin a layout: parallelism: {tensor: .., pipeline: .., data: .., expert: ..}"}, nil
	}
	best := cands[0]
	// The input the chosen layout was evaluated with (base.WithLayout of
	// its layout), so that its confirmation is for the report's input.
	in := chosen.in
	verdict := "the best available, but none fits with every SLO passing"
	if best.Feasible {
		verdict = "it fits and meets every SLO"
	}
	if n := unsettled(cands); n > 0 {
		verdict += fmt.Sprintf("; the search's work budget ran out with %d layouts unsettled (not simulated, or their ranking run cut short) whose optimistic bound could still beat it", n)
	}
	d := diag.Diagnostic{Code: CodeLayoutChosen, Severity: diag.Info, Path: "parallelism",
		// The steady decode, not the report's simulated figure (generate_auto:
		// "predicted 14644" read beside the report's "predicted 8,781").
		Message: fmt.Sprintf("parallelism: auto chose %s out of %d layouts (%s; steady decode %.0f output tokens/s at the workload's concurrency, before the prefills that share its steps)",
			best.Name(), len(cands), verdict, best.DecodeTokPerS),
		Hint: "to pin it, write " + best.PinYAML()}
	return in, &Result{Candidates: cands, Chosen: best}, d, chosen.confirmation
}

// Confirmation is check's own evaluation of a layout (slo.Evaluate with
// the options the search was given, advice included): the input and
// memory half it ran on, the options and the result.
type Confirmation struct {
	in  input.Input
	mem memory.Report
	opt slo.Options
	res slo.Result
}

// For is the confirmation's result for the performance half of in, whose
// memory half is m, with opt: ok only when in, m and opt are those it was
// computed for (slo.Evaluate is deterministic in them), so that using it
// gives the report slo.Evaluate would. A nil confirmation has none.
func (c *Confirmation) For(in *input.Input, m *memory.Report, opt slo.Options) (slo.Result, bool) {
	if c == nil || opt != c.opt || !reflect.DeepEqual(*in, c.in) || !reflect.DeepEqual(*m, c.mem) {
		return slo.Result{}, false
	}
	r := c.res
	// The caller appends to these: its own copies.
	r.Notes, r.SLO, r.Findings = slices.Clone(r.Notes), slices.Clone(r.SLO), slices.Clone(r.Findings)
	return r, true
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
