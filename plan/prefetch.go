package plan

import (
	"sync"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// usePrefetch lets runAhead compute what the search is expected to ask
// for next; off, every simulation starts when asked for (tests compare).
var usePrefetch = true

// ranked is a ranking simulation's outcome before it is applied to its
// candidate: check's report of a colocated candidate (at rankRequests),
// or a P/D candidate's section and verdicts. Computing it reads only the
// candidate's inputs, which nothing writes once the candidates are
// bounded, so it can run ahead of the decision to use it; applying it
// (simulateWith) is the only write, made where the decision is.
type ranked struct {
	check    *estimate.Report
	pdReport pd.Report
	verdicts []slo.Verdict
}

// rankRun computes e's ranking simulation (a pure function of e's inputs
// and the seed: the same figures whenever it runs).
func rankRun(e *evaluated, seed uint64) ranked {
	if p := e.pd; p != nil {
		pre := p.pre.in
		// The decode pool's own input, not a copy: pd keys its decode runs
		// in p.memo by this pointer, so candidates sharing the pool
		// (s.pools) share its runs. Nothing writes a pool's input after
		// assess.
		rep, verdicts := estimate.EvaluatePD(&pre, &p.dec.in, p.connector, p.sameNode, p.router, slo.Options{Seed: seed, Memo: p.memo})
		return ranked{pdReport: rep, verdicts: verdicts}
	}
	return ranked{check: checkOf(&e.in, seed, rankRequests)}
}

// rankResult is e's ranking simulation: the one prefetch started, else
// computed now.
func rankResult(e *evaluated, seed uint64) ranked {
	if e.ahead != nil {
		return e.ahead()
	}
	return rankRun(e, seed)
}

// prefetch starts the ranking simulation of those of es not simulated
// yet (nor started) in the background, for rankResult to pick up: what
// the search will most likely simulate next. Whether and when a
// candidate's outcome is applied stays the search's decision, made as
// before; a prefetched outcome nobody asks for is dropped (its goroutine
// still runs to its end: on the 15 examples, 3 of 319 prefetched runs, all
// of deepseek-r1-8xh200-burst, whose work budget stops the tuning). Only
// the goroutine calling the search calls it (e.ahead is its field).
func prefetch(es []*evaluated, seed uint64) {
	for _, e := range es {
		if e.Simulated || e.ahead != nil {
			continue
		}
		e.ahead = sync.OnceValue(func() ranked { return rankRun(e, seed) })
		go e.ahead()
	}
}

// runAhead simulates batch (simulate, each in its goroutine) and, each
// time one of them finishes while others still run, starts the next of
// next not in batch (prefetch): the cores a batch's last, longest runs
// would leave idle compute what the search is expected to ask for after
// it. What the search then simulates, and every figure, are as without.
func runAhead(batch, next []*evaluated, seed uint64, slots []sloSlot) {
	if !usePrefetch {
		next = nil
	}
	in := map[*evaluated]bool{}
	for _, e := range batch {
		in[e] = true
	}
	var ahead []*evaluated
	for _, e := range next {
		if !in[e] {
			ahead = append(ahead, e)
		}
	}
	finished := make(chan struct{}, len(batch))
	for _, e := range batch {
		go func() { simulate(e, seed, slots); finished <- struct{}{} }()
	}
	for left := len(batch); left > 0; left-- {
		<-finished
		if left > 1 && len(ahead) > 0 {
			prefetch(ahead[:1], seed)
			ahead = ahead[1:]
		}
	}
}
