package slo

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// sessionsForThroughput finds the smallest concurrency (DP multiples,
// within max_num_seqs and KV) whose steady decode reaches the target, then
// re-simulates the workload at it (wp; and once more at the concurrency the
// shortfall points to): the line says the sessions would reach the target
// only when a simulation does. f is the prefill interference (see
// prefillInterference): steady-decode figures are divided by it to state
// what the workload would see.
func sessionsForThroughput(in *input.Input, sm *perf.StepModel, kvSeqs int, target, f float64, total bool, v *Verdict, wp *wouldPassCheck) string {
	c, tp, ok := minSessionsFor(in, sm, kvSeqs, target, total)
	if !ok {
		kvText := "KV capacity"
		if in.Workload.SessionTokens > 0 {
			kvText = fmt.Sprintf("KV capacity for sessions of %d tokens (workload.session_tokens)", kvSessionTokens(in))
		}
		return fmt.Sprintf("no concurrency reaches it on this layout: at most ≈%.0f tokens/s (steady decode %.0f at %d sessions, limited by max_num_seqs %d and %s)", ceilingThroughput(tp, f, v), tp, c, in.MaxNumSeqs, kvText)
	}
	pt, _ := sm.DecodeAt(c, in.MeanContext())
	estimate := fmt.Sprintf("the steady-decode model puts it at %d concurrent sessions (≈%.0f tokens/s after prefill interference, steady decode %.0f, TPOT %.0f ms)", c, tp/f, tp, pt.TPOTS*1e3)
	if cp := clientCap(in); cp > 0 && c > cp {
		return capRaiseText(in, cp, c, tp, f, pt.TPOTS, v.Target, total)
	}
	if !closedLoop(in) {
		return estimate + "; an estimate, not simulated (the workload's load is not a number of sessions)"
	}
	n, got, tried := sessionsReaching(v, func(c int) specEdit { return concurrencyEdit(c) }, c, sm.S.DP, sessionsLimit(in, kvSeqs)*sm.S.DP, wp)
	if n > 0 {
		// steady decode at the sessions named, not at the search's start
		// (a line said "656 sessions … steady decode 8557 at 240")
		pn, _ := sm.DecodeAt(n, in.MeanContext())
		return fmt.Sprintf("%d concurrent sessions (%d per DP rank) would reach %.0f tokens/s (re-simulated as check simulates that spec; steady decode %.0f, TPOT %.0f ms)",
			n, n/sm.S.DP, got, throughputOf(in, pn, total), pn.TPOTS*1e3) + wp.bandCaveat(v, concurrencyEdit(n))
	}
	if tried == "" {
		return estimate + "; an estimate, not simulated"
	}
	return estimate + tried + ": more sessions alone are not shown to meet it"
}

// ceilingThroughput is the most the layout is said to reach: the steady
// decode tp at its largest batch after the prefill interference f, or the
// workload's own simulated figure when that is higher — f is measured at
// the workload's concurrency, not at tp's, so tp/f alone can read below
// what the same report predicts (qa45c F3: "at most ≈26" beside a
// predicted 35.1 on the reference).
func ceilingThroughput(tp, f float64, v *Verdict) float64 {
	c := tp / f
	if v != nil && v.Predicted > c {
		c = v.Predicted
	}
	return c
}

// capRaiseText is the throughput advice under a client cap cp
// (workload.client_max_concurrency beside arrival_rate_per_s): the
// requests in flight are the cap's, not sessions, so the knob is the cap,
// raised to the c in flight the steady-decode search found (tp, TPOT
// tpot, prefill interference f) for the target (the verdict's own, not its
// steady-decode equivalent). The arrivals bound it too: at rate R the
// client sends at most R requests a second, R × output tokens (× input +
// output when the target counts total tokens) a second whatever the cap;
// when that is short of the target, raising the cap alone cannot meet it.
func capRaiseText(in *input.Input, cp, c int, tp, f, tpot, target float64, total bool) string {
	w := in.Workload
	x := fmt.Sprintf("workload.client_max_concurrency: %d (now %d): "+
		"the steady-decode model puts the target at %d requests in flight (≈%.0f tokens/s after prefill interference, steady decode %.0f, TPOT %.0f ms)",
		c, cp, c, tp/f, tp, tpot*1e3)
	per, kind := float64(w.OutputTokens), "output"
	if total {
		per, kind = float64(w.InputTokens+w.OutputTokens), "total"
	}
	if most := w.ArrivalRatePerS * per; per > 0 && most < target {
		x += fmt.Sprintf(", but the arrivals at %.2f requests/s bring at most %.0f %s tokens/s (workload.arrival_rate_per_s × %.0f tokens): the cap alone cannot meet %.0f", w.ArrivalRatePerS, most, kind, per, target)
	}
	return x + "; an estimate, not simulated"
}

// sessionsReachingTries is how many concurrencies sessionsReaching
// simulates.
const sessionsReachingTries = 3

// sessionsReaching re-simulates the throughput verdict v at the sessions
// a steady-decode search found (from), and when that falls short at the
// concurrency its shortfall points to (twice the shortfall: throughput
// grows slower than the sessions), in DP multiples within limit: the
// sessions whose run meets v and the figure (0 when none does), and what
// the runs gave.
func sessionsReaching(v *Verdict, edit func(int) specEdit, from, dp, limit int, wp *wouldPassCheck) (int, float64, string) {
	tried := ""
	for i, try := 0, from; i < sessionsReachingTries && try > 0; i++ {
		got, pass := wp.settle(v, edit(try))
		if pass {
			return try, got, tried
		}
		if got <= 0 {
			break
		}
		tried += fmt.Sprintf("; simulated at %d sessions it gives %.0f tokens/s", try, got)
		next := int(math.Ceil(float64(try)*(2*v.Target/got-1)/float64(dp))) * dp
		next = min(max(next, try+dp), limit)
		if next <= try {
			break
		}
		try = next
	}
	return 0, 0, tried
}

// sessionsLimit is the most sessions per DP rank a search may try:
// max_num_seqs, and the sessions (kvSessionTokens: session_tokens where
// stated, else input + output tokens)
// one rank's KV pool holds as the capacity section counts them (kvSeqs,
// memory.Report.SequencesFit: a hybrid's state and a window's blocks
// included; 0: no KV limit known).
func sessionsLimit(in *input.Input, kvSeqs int) int {
	limit := max(1, in.MaxNumSeqs)
	if kvSeqs > 0 {
		limit = min(limit, kvSeqs)
	}
	return limit
}

// minSessionsFor returns the smallest concurrency reaching the target
// (ok), or the best throughput found and its concurrency.
func minSessionsFor(in *input.Input, sm *perf.StepModel, kvSeqs int, target float64, total bool) (int, float64, bool) {
	ctx := in.MeanContext()
	limit := sessionsLimit(in, kvSeqs)
	best, bestC := 0.0, 0
	for per := 1; per <= limit; per = nextSessions(per, limit) {
		pt, _ := sm.DecodeAt(per*sm.S.DP, ctx)
		tp := throughputOf(in, pt, total)
		if tp >= target {
			return per * sm.S.DP, tp, true
		}
		if tp > best {
			best, bestC = tp, per*sm.S.DP
		}
	}
	return bestC, best, false
}

// bandwidthFor finds the per-node inter-node bandwidth at which ok holds
// in the step model (doubling from the current figure, up to 16 × 400
// Gbit/s), then re-simulates v's scenario on the deployment with one NIC
// of that bandwidth per node (wp; and at twice it when that falls short):
// the line says it would meet the target only when a simulation does.
func bandwidthFor(in *input.Input, ok func(*perf.StepModel) bool, v *Verdict, wp *wouldPassCheck) string {
	if in.Layout.Nodes <= 1 {
		return "the network is intra-node; a faster inter-node link does not help"
	}
	if linkName(in) == "multi-node NVLink" {
		// qa43 F2: "3200 Gbit/s of inter-node bandwidth (now 1600)" for an
		// all-to-all that never touches a NIC
		return "the nodes' traffic runs over their multi-node NVLink domain, not the NICs; a faster inter-node link does not help"
	}
	cur := in.Network.InterGbitPerSPerNIC * float64(max(1, in.Network.NICsPerNode))
	for bw := cur * 2; bw <= 6400; bw *= 2 {
		alt := *in
		alt.Network.InterGbitPerSPerNIC, alt.Network.NICsPerNode = bw, 1
		if !ok(perf.NewStepModel(perf.SetupFromInput(&alt))) {
			continue
		}
		tried := ""
		for try := bw; try <= 6400 && try <= 2*bw; try *= 2 {
			got, pass := wp.meets(v, bandwidthEdit(try))
			if pass {
				return fmt.Sprintf("inter-node bandwidth of about %.0f Gbit/s per node (now %.0f) would meet it, other things equal (re-simulated: %s)", try, cur, textfmt.Quantity(got, v.Unit)) +
					wp.bandCaveat(v, bandwidthEdit(try))
			}
			if got <= 0 {
				break
			}
			tried += fmt.Sprintf("; simulated at %.0f Gbit/s it gives %s", try, textfmt.Quantity(got, v.Unit))
		}
		if tried == "" {
			tried = "; an estimate, not simulated"
		} else {
			tried += ": a faster link alone is not shown to meet it"
		}
		return fmt.Sprintf("the steady-state step model meets it at about %.0f Gbit/s of inter-node bandwidth per node (now %.0f)%s", bw, cur, tried)
	}
	return fmt.Sprintf("no inter-node bandwidth up to 6400 Gbit/s per node meets it alone (now %.0f Gbit/s)", cur)
}

// throughputBound states the physical ceiling at the SLO's concurrency:
// no step can beat reading the weights it uses once (perf.Floors), in the lightest
// format this GPU computes in (FP8 where it has FP8 tensor cores).
func throughputBound(in *input.Input, sm *perf.StepModel, c int, target float64) string {
	floor := sm.FloorsAt(c, in.MeanContext()).WeightReadS
	format := in.WeightsDType
	if in.GPU.FP8TFLOPS > 0 && in.WeightsDType != "fp8" && in.WeightsDType != "int8" && !catalog.NarrowerThanFP8(in.WeightsDType) {
		v := *in
		v.WeightsDType = "fp8"
		floor, format = perf.NewStepModel(perf.SetupFromInput(&v)).FloorsAt(c, in.MeanContext()).WeightReadS, "fp8"
	}
	ceiling := float64(c) * sm.S.TokensPerStep() / floor
	if ceiling >= target {
		return fmt.Sprintf("physically possible at %d sessions: the %s weight-read floor (%.1f ms per step) allows up to %.0f output tokens/s", c, format, floor*1e3, ceiling)
	}
	return fmt.Sprintf("impossible at %d sessions with this layout, whatever the network: even the %s weight-read floor (%.1f ms per step) caps decoding at %.0f output tokens/s; only more sessions per step (larger batches) can raise it",
		c, format, floor*1e3, ceiling)
}

// loadSearch runs the "what load would meet it" searches of a check's
// TTFT targets (loadFor): the simulations they run are remembered by input
// length and load, so the percentiles of one length share them, and each
// measures the requests simulateScenarios' split gives a ranking run
// (1000 with up to three scenarios).
type loadSearch struct {
	in       *input.Input
	sm       *perf.StepModel
	kv       int64
	cost     *sim.KVCost // Options.kv
	requests int
	memo     map[[2]float64]sim.Percentiles
	// spent counts the work the searches simulated (sim.Result.Work;
	// loadSearchBudget).
	spent int64
	// wp re-simulates the load a search finds before it is printed.
	wp *wouldPassCheck
	// unmeasured says some load's run measured no request (ttftAt).
	unmeasured bool
}

// loadSearchBudget bounds the work a check's load searches simulate in
// all, in the simulations' work-budget units (sim.Result.Work: rank-steps
// and sequence updates — engine steps alone missed a search at a million
// sessions, whose few steps each update tens of thousands of sequences:
// 32 M units, 1.1 s): two scenarios' worth. A search tries up to about two
// dozen loads; the reference-like search in loadsearch_test spends about
// a tenth of it.
const loadSearchBudget = 2 * sim.StepBudget

// loadSearchRunBudget is the work budget of one of a load search's
// simulations (sim.Config.WorkBudget): a sixteenth of a check scenario's,
// as a search runs a dozen or two.
const loadSearchRunBudget = sim.StepBudget / 16

// loadSearchRequests is what one simulation of a load search measures
// with up to fullScenarios scenarios.
const loadSearchRequests = 1000

// newLoadSearch is the load search of a check whose scenarios are lengths.
func newLoadSearch(in *input.Input, sm *perf.StepModel, kv int64, cost *sim.KVCost, lengths int, wp *wouldPassCheck) *loadSearch {
	return &loadSearch{in: in, sm: sm, kv: kv, cost: cost, memo: map[[2]float64]sim.Percentiles{}, wp: wp,
		requests: max(sim.MinMeasured, loadSearchRequests*fullScenarios/max(fullScenarios, lengths))}
}

// ttftAt is the simulated TTFT of prompts of n tokens at the given load
// (sessions, or arrival rate for an open loop).
func (ls *loadSearch) ttftAt(n int, load float64) sim.Percentiles {
	key := [2]float64{float64(n), load}
	if res, ok := ls.memo[key]; ok {
		return res
	}
	v := *ls.in
	if v.Workload.ArrivalRatePerS > 0 {
		v.Workload.ArrivalRatePerS = load
	} else {
		v.Workload.Concurrency = max(1, int(load))
	}
	out := simulateScenario(&v, ls.sm, ls.kv, n, Options{Seed: 1, Requests: ls.requests, Replications: 1, workBudget: loadSearchRunBudget, kv: ls.cost}).Result
	ls.spent += max(1, out.Work)
	if out.Requests == 0 {
		// A run its work ceiling ended before any request completed has
		// no TTFT: its zeros met every target (qa43 F2: "1984 concurrent
		// sessions, where they predicted 0 s"). No load is shown to meet
		// it there.
		inf := math.Inf(1)
		out.TTFT = sim.Percentiles{Mean: inf, P50: inf, P90: inf, P95: inf, P99: inf}
		ls.unmeasured = true
	}
	ls.memo[key] = out.TTFT
	return out.TTFT
}

// loadFor searches the largest load (sessions, or arrival rate) at which
// the simulated TTFT percentile q of n-token prompts meets the target:
// halving until it passes, then bisecting between the passing and failing
// loads.
func (ls *loadSearch) loadFor(n int, q string, target float64) string {
	if ls.spent >= loadSearchBudget {
		return "the load that would meet it was not searched: the check's load searches had spent their simulation budget on the targets above"
	}
	in := ls.in
	open := in.Workload.ArrivalRatePerS > 0
	full := float64(max(1, in.Workload.Concurrency))
	if open {
		full = in.Workload.ArrivalRatePerS
	}
	meets := func(load float64) (bool, float64) {
		res := ls.ttftAt(n, load)
		got := map[string]float64{"p50": res.P50, "p95": res.P95, "p99": res.P99}[q]
		return got <= target, got
	}
	lo, hi := 0.0, full
	var loGot float64
	for load := full / 2; load >= 1 || (open && load > full/1024); load /= 2 {
		if ok, got := meets(load); ok {
			lo, loGot = load, got
			break
		}
		hi = load
	}
	if lo == 0 && ls.unmeasured {
		return "the load search's short runs measured no request at some of the loads tried (each ended at its work ceiling first): no lower load is shown to meet it"
	}
	if lo == 0 {
		return "no lower load meets it: the prompt's own prefill is too slow"
	}
	for i := 0; i < 4 && (open || hi-lo > 1); i++ {
		mid := (lo + hi) / 2
		if ok, got := meets(mid); ok {
			lo, loGot = mid, got
		} else {
			hi = mid
		}
	}
	return ls.confirmLoad(n, q, target, lo, full, loGot)
}

// confirmLoad re-simulates the load a search found (its runs are short:
// loadSearchRunBudget) as check runs the spec with that load (meets,
// judged: check's seed, settings and replications, and its band), and
// offers a load only where check on that spec calls the verdict a pass:
// the search's short runs are one replication each, and at a KV cache's
// edge one replication can miss the preemptions check's pooled runs find
// (QA41b D3: the search and its screening said 21 sessions, 85.9 ms, where
// check of 21 sessions says 1.22 s, uncertain, and of 20, 97.5 ms, pass).
// A load that fails so is stepped down: one session (or a tenth of the
// rate) below it, then three quarters of it.
func (ls *loadSearch) confirmLoad(n int, q string, target, lo, full, loGot float64) string {
	open := ls.in.Workload.ArrivalRatePerS > 0
	v := Verdict{Name: fmt.Sprintf("TTFT %s at %d input tokens", q, n), Target: target, Unit: "s"}
	short := func(load float64) string {
		if open {
			return fmt.Sprintf("%.2f requests/s", load)
		}
		return fmt.Sprintf("%d sessions", int(load))
	}
	say := func(load float64) string {
		if open {
			return fmt.Sprintf("an arrival rate of at most %.2f requests/s (now %.2f)", load, full)
		}
		return fmt.Sprintf("at most %d concurrent sessions (now %d)", int(load), int(full))
	}
	edit := func(load float64) specEdit {
		if open {
			return rateEdit(load)
		}
		return concurrencyEdit(int(load))
	}
	tried := ""
	uncertain := -1.0 // the first load whose figure meets the target and whose band straddles it
	var uncertainGot float64
	loads := confirmLoads(lo, open)
	edits := make([]specEdit, len(loads))
	for i, load := range loads {
		edits[i] = edit(load)
	}
	ls.wp.prefetchMeets(&v, edits)
	for _, load := range loads {
		got, pass := ls.wp.settle(&v, edit(load))
		if pass {
			j, ok := ls.wp.judged(&v, edit(load))
			if ok && j.Verdict == VerdictPass {
				return fmt.Sprintf("%s would meet it (re-simulated as check simulates that spec: %s, PASS%s)", say(load), textfmt.Seconds(got), tried) + ls.wp.offer(&v, edit(load), VerdictPass)
			}
			if ok {
				if uncertain < 0 {
					uncertain, uncertainGot = load, got
				}
				tried += fmt.Sprintf("; at %s: %s, %s", short(load), textfmt.Seconds(got), strings.ToUpper(j.Verdict))
				continue
			}
		}
		if got <= 0 {
			break
		}
		tried += fmt.Sprintf("; at %s: %s, above the target", short(load), textfmt.Seconds(got))
	}
	if uncertain > 0 {
		// no load tried passes check's band: the highest whose figure meets
		// the target, said to stay uncertain (bandCaveat)
		return fmt.Sprintf("%s would meet its figure (re-simulated as check simulates that spec: %s; tried%s)", say(uncertain), textfmt.Seconds(uncertainGot), strings.TrimPrefix(tried, ";")) +
			ls.wp.bandCaveat(&v, edit(uncertain))
	}
	est := fmt.Sprintf("the load search's short runs put it at %s, where they predicted %s", strings.TrimPrefix(say(lo), "at most "), textfmt.Seconds(loGot))
	if tried == "" {
		return est + "; not re-simulated"
	}
	return est + "; check of the loads tried gives" + strings.TrimPrefix(tried, ";") + ": not confirmed"
}

// confirmLoads are the loads confirmLoad tries, from the search's lo down:
// lo, one session (a tenth of an open loop's rate) less, and three
// quarters of lo, whole sessions for a closed loop, each once.
func confirmLoads(lo float64, open bool) []float64 {
	cands := []float64{lo, lo - 1, lo * 3 / 4}
	if open {
		cands = []float64{lo, lo * 0.9, lo * 3 / 4}
	}
	var out []float64
	for _, x := range cands {
		if !open {
			x = float64(int(x))
		}
		if x <= 0 || !open && x < 1 || len(out) > 0 && x >= out[len(out)-1] {
			continue
		}
		out = append(out, x)
	}
	return out
}

// nextSessions grows the per-rank session count by about 25% and lands on
// limit exactly before passing it.
func nextSessions(per, limit int) int {
	next := max(per+1, per*5/4)
	if per < limit && next > limit {
		return limit
	}
	return next
}
