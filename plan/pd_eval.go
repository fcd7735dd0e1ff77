package plan

import (
	"sort"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// pdEval is a P/D candidate's side of evaluated: its two pools (shared
// with every pair they are in) and, once simulated, check's section.
type pdEval struct {
	pre, dec *pdPool
	bound    pd.Bound
	report   *pd.Report
	// router is the spec's router kind: its path's hops are in TTFT.
	router string
	// connector is the KV connector the candidate's spec names (the
	// spec's own, else pdConnector): its hand-off is check's.
	connector string
	// sameNode: both pools on one node, every hand-off inside it
	// (resolve.Disaggregated.SameNode, as check passes it to pd).
	sameNode bool
	// memo is the search's (pdSearch.memo): identical decode-pool runs
	// within one plan run are simulated once.
	memo *sim.Memo
	// guess is the bound's score with the TPOT of steady decoding at the
	// bound's rate (pd.Bound.SteadyTPOTS) and a closed loop's TTFT from
	// Little's law: not a bound, the order in which the P/D groups that
	// could rank first are simulated (promises).
	guess Score
}

// promises orders P/D candidates for simulation: more SLOs the guess does
// not fail, then the rate matching's output tokens/s per GPU. A verdict
// near its target flips either way between guess and simulation, so the
// guess's finer order (pass before uncertain, shortfalls) is not used.
func (p *pdEval) promises(q *pdEval) bool {
	a, b := p.guess.Pass+p.guess.Uncertain, q.guess.Pass+q.guess.Uncertain
	if a != b {
		return a > b
	}
	return p.guess.PerGPU > q.guess.PerGPU
}

// pdEvaluated are the P/D candidates as plan's stages take them: memory
// already known (both pools fit), figures to be bounded.
func (s *pdSearch) evaluated(cands []Settings) []*evaluated {
	var out []*evaluated
	for _, c := range cands {
		pre, dec, same := s.pair(c.dtype(), c.PD)
		e := &evaluated{Candidate: Candidate{Settings: c, GPUs: pre.bound.Pool.GPUs + dec.bound.Pool.GPUs}, pd: &pdEval{pre: pre, dec: dec, router: s.routerKind(), connector: s.connector(), sameNode: same, memo: s.memo}}
		e.Fits = pre.err == nil && dec.err == nil && pre.fits && dec.fits
		if e.Fits {
			e.WeightsGiB, e.KVGiB = dec.bound.Pool.WeightsGiB, dec.bound.Pool.KVCacheGiB
			e.kvTokens = dec.bound.Pool.KVTokensPerRank
		}
		out = append(out, e)
	}
	return out
}

// boundPD is boundOf for a P/D candidate: pd.Combine's rate matching and
// floors, judged with check's bands (slo.Judge on the decode pool, as
// check judges a P/D deployment), so no simulation's verdict is better.
func boundPD(e *evaluated, slots []sloSlot) {
	p := e.pd
	p.bound = pd.Combine(p.pre.bound, p.dec.bound, p.sameNode, p.router)
	b := &p.bound
	dec := &p.dec.in
	e.OutputTokPerS, e.TPOTS, e.Binding = b.OutputTokPerS, b.TPOTS, b.Binding
	e.SLO = nil
	for _, s := range slots {
		v := slo.Verdict{Name: s.name, Unit: s.unit, Target: s.target}
		regime, higher := band.Throughput, false
		switch s.kind {
		case kindThroughput:
			v.Predicted, higher, regime = b.OutputTokPerS, true, slo.ThroughputRegime(dec)
			if s.total {
				v.Predicted = b.TotalTokPerS
			}
			v.Binding = b.Binding
		case kindTPOT:
			v.Predicted, regime, v.Binding = b.TPOTS, slo.TPOTRegime(dec), pd.BindDecode
		case kindTTFT:
			v.Predicted, regime, v.Binding = b.TTFTS[s.inputTokens], slo.TTFTRegime(s.quantile), b.TTFTBinding(s.inputTokens)
		}
		slo.Judge(&v, dec, regime, higher, b.RequestsPerS > 0)
		if s.kind == kindTPOT && slo.OneOutputToken(dec) {
			v.Verdict = verdictPass // nothing between output tokens: the bound passes it
		}
		e.SLO = append(e.SLO, sloResultOf(v, s.kind == kindThroughput))
	}
	e.PerGPU = e.OutputTokPerS / float64(max(1, e.GPUs))
	e.SteadyPerGPU, e.SteadyTPOTS = e.PerGPU, e.TPOTS
	e.PD = figuresOfBound(p)
	g := e.Candidate
	g.SLO = append([]SLOResult(nil), e.SLO...)
	tpot := max(b.TPOTS, b.SteadyTPOTS)
	// A closed loop's sessions not decoding wait for their first token
	// (Little's law): sessions / rate − the decode time.
	w := dec.Workload
	wait := 0.0
	if w.ArrivalRatePerS <= 0 && w.BurstRequests <= 0 && b.RequestsPerS > 0 {
		wait = float64(max(1, w.Concurrency))/b.RequestsPerS - float64(w.OutputTokens)*tpot
	}
	for i, s := range slots {
		v := slo.Verdict{Name: s.name, Unit: s.unit, Target: s.target}
		switch {
		case s.kind == kindTPOT && !slo.OneOutputToken(dec):
			v.Predicted = tpot
			slo.Judge(&v, dec, slo.TPOTRegime(dec), false, b.RequestsPerS > 0)
		case s.kind == kindTTFT && wait > g.SLO[i].Predicted:
			v.Predicted = wait
			slo.Judge(&v, dec, slo.TTFTRegime(s.quantile), false, true)
		default:
			continue
		}
		g.SLO[i].Predicted, g.SLO[i].Verdict = v.Predicted, v.Verdict
	}
	p.guess = scoreOf(&g)
}

// simulatePDLeaders simulates the P/D groups' leaders that could rank
// first (their bound at least the best simulated score), most promising
// first (pdEval.guess), in batches, until none could or PDSimBudget is
// spent; those left that could are counted (Stats.PDUnsettled).
func simulatePDLeaders(leaders []*evaluated, done *[]*evaluated, run func(batch, next []*evaluated), st *Stats) {
	queue := append([]*evaluated(nil), leaders...)
	sort.SliceStable(queue, func(i, j int) bool { return queue[i].pd.promises(queue[j].pd) })
	for len(queue) > 0 {
		best := nthGroup(*done, 1)
		var batch, rest []*evaluated
		for _, e := range queue {
			switch {
			case best != nil && !e.bound.AtLeast(*best):
			case len(batch) < simBatch && st.pdBudgetLeft(len(batch)):
				batch = append(batch, e)
			default:
				rest = append(rest, e)
			}
		}
		if len(batch) == 0 {
			st.PDUnsettled = len(rest)
			return
		}
		run(batch, pdAhead(rest, best, st.pdSimulated+len(batch)))
		queue = rest
	}
}

// pdAhead is what simulatePDLeaders's next batch would be if the batch
// running did not move the best score (it can only raise it, leaving out
// more): the leaders of rest, in order, whose bound is at least best,
// within what PDSimBudget leaves after simulated.
func pdAhead(rest []*evaluated, best *Score, simulated int) []*evaluated {
	var out []*evaluated
	for _, e := range rest {
		if len(out) >= min(simBatch, PDSimBudget-simulated) {
			break
		}
		if best == nil || e.bound.AtLeast(*best) {
			out = append(out, e)
		}
	}
	return out
}

// figuresOfBound fills the P/D figures from the bound (the TTFT parts are
// the floors: no queue, the lone transfer).
func figuresOfBound(p *pdEval) *PDFigures {
	b := &p.bound
	f := &PDFigures{PrefillGPUs: b.Prefill.GPUs, DecodeGPUs: b.Decode.GPUs, PrefillAll2All: b.Prefill.All2All, DecodeAll2All: b.Decode.All2All,
		Binding: b.Binding, TransferS: b.TransferS, LeaseFits: true}
	n := max(1, p.dec.in.Workload.InputTokens)
	f.PrefillS = p.pre.bound.PrefillS[n]
	f.PrefillUtilization, f.DecodeUtilization = ratioOf(b.RequestsPerS, b.PrefillRatePerS), ratioOf(b.RequestsPerS, b.DecodeRatePerS)
	return f
}

func ratioOf(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// simulatePD is simulateWith for a P/D candidate: `vlaunch check`'s model
// of the deployment (estimate.EvaluatePD on the pools check resolves, with
// the spec's connector, the seed
// check uses), so check after --apply prints these figures. Its
// simulation has one size (check's), so the ranking run is the confirmed
// one.
func simulatePD(e *evaluated, seed uint64, slots []sloSlot) {
	p := e.pd
	pre := p.pre.in
	r := rankResult(e, seed) // estimate.EvaluatePD (rankRun), or prefetch's run of it
	rep, verdicts := r.pdReport, r.verdicts
	p.report = &rep
	// The prefill pool holds the requests resident there (check's rule):
	// a candidate whose pool cannot leaves the ranking (rankActual).
	e.Fits = e.Fits && !pd.PrefillMemoryFindings(&pre, &rep).HasErrors()
	e.work = 0 // PDSimBudget bounds the P/D simulations, not planWorkBudget (pd.Report does not say what its runs spent)
	e.SLO = nil
	for i, v := range verdicts {
		e.SLO = append(e.SLO, sloResultOf(v, i < len(slots) && slots[i].kind == kindThroughput))
	}
	e.OutputTokPerS, e.TPOTS = 0, 0
	if len(rep.Scenarios) > 0 {
		sc := rep.Scenarios[0]
		e.OutputTokPerS, e.TPOTS, e.Binding = sc.OutputTokPerS, sc.TPOT.Mean, sc.Binding
		f := figuresOfBound(p)
		t := sc.TTFTParts
		f.Binding, f.PrefillUtilization, f.DecodeUtilization = sc.Binding, sc.PrefillUtilization, sc.DecodeUtilization
		f.PrefillQueueS, f.PrefillS, f.TransferS, f.DecodeAdmitS, f.FirstDecodeS = t.PrefillQueueS, t.PrefillS, t.TransferS, t.DecodeAdmitS, t.FirstDecodeS
		f.OtherS = t.RouterS + t.FrontendS
		f.TransferMB, f.LeaseFits = sc.Transfer.WireBytes/1e6, sc.Lease.Fits
		e.PD = f
	}
	e.PerGPU = e.OutputTokPerS / float64(max(1, e.GPUs))
	e.Simulated, e.Confirmed = true, true // check's own run: P/D has no shorter ranking run
	e.Score = scoreOf(&e.Candidate)
}

// poolInputs are a P/D candidate's pool inputs (tests).
func (p *pdEval) poolInputs() (input.Input, input.Input) { return p.pre.in, p.dec.in }

// PDSimBudget is how many P/D candidates the ranking simulates at most
// (the spec's own aside): a P/D check runs two or three pool simulations
// per scenario, 30–200 ms for the examples' pools, and the bound's TPOT
// (a lone sequence) leaves many P/D groups able to rank first on paper.
const PDSimBudget = 12

// pdBudgetLeft reports whether pending more P/D simulations fit the budget.
func (s *Stats) pdBudgetLeft(pending int) bool { return s.pdSimulated+pending < PDSimBudget }

// pdIn counts the P/D candidates of a batch.
func pdIn(batch []*evaluated) int {
	n := 0
	for _, e := range batch {
		if e.pd != nil {
			n++
		}
	}
	return n
}

// routerKind is the router kind of the spec candidates are written into
// ("" for a colocated spec: withPD writes the default router).
// connector is the KV connector a candidate's spec names: the spec's own
// (withPD keeps it), else pdConnector.
func (s *pdSearch) connector() string {
	if s.src == nil || s.src.Disaggregation == nil || s.src.Disaggregation.Connector == "" {
		return pdConnector
	}
	return s.src.Disaggregation.Connector
}

func (s *pdSearch) routerKind() string {
	if s.src == nil || s.src.Disaggregation == nil {
		return ""
	}
	return s.src.Disaggregation.Router.Kind
}
