package search

import (
	"math"
	"runtime"
	"sort"
	"sync"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

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
	es := bounds(base, layouts)
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
// bounds is every layout's bound, worked out on every core: the layouts
// are independent, and their idle-system TTFT bounds are most of a large
// search's cost (248 layouts × 16 TTFT lengths: 0.75 s on one core).
func bounds(base *input.Input, layouts []input.Layout) []*entry {
	es := make([]*entry, len(layouts))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				es[i] = bound(base.WithLayout(layouts[i]))
			}
		})
	}
	for i := range layouts {
		next <- i
	}
	close(next)
	wg.Wait()
	return es
}

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

// searchRequests is the number of simulated requests per scenario while
// ranking candidates: enough for stable percentiles to compare layouts, a
// fraction of a full check's simulation so the whole search stays well
// under two seconds. The chosen layout is then re-checked in full.
const searchRequests = 500

// searchWorkShare is the part of a check scenario's work budget each
// layout's scenario may spend in the search: with at most
// searchScenarioBudget scenarios simulated, the whole search costs about
// one scenario of a check, a third of the check that follows it.
const searchWorkShare = 1.0 / 96

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
	r := slo.Evaluate(&e.in, &e.mem, slo.Options{Seed: 1, Requests: searchRequests, Replications: 1, MaxWarmup: searchRequests, WorkShare: searchWorkShare, NoAdvice: true})
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
