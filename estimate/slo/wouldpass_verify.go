package slo

import (
	"fmt"
	"strings"
	"sync"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// specEdit is a "what it would take" line's change to the spec (issue #27:
// the line is re-simulated before it is printed): the key names it for the
// memo, edit applies it to a copy of the deployment's spec, and direct to
// a copy of the input where there is no spec to edit (the quick form, a
// layout the search chose: nil, no verification).
type specEdit struct {
	key    string
	edit   func(*spec.Deployment)
	direct func(*input.Input)
}

// at is the memo key of e's scenario at n input tokens (the screening
// runs, the confirmations and their prefetch share it).
func (e specEdit) at(n int) string { return fmt.Sprintf("%s@%d", e.key, n) }

// concurrencyEdit is workload.concurrency: c.
func concurrencyEdit(c int) specEdit {
	return specEdit{fmt.Sprintf("concurrency=%d", c), func(s *spec.Deployment) { s.Workload.Concurrency = c },
		func(in *input.Input) { in.Workload.Concurrency = c }}
}

// rateEdit is workload.arrival_rate_per_s: r.
func rateEdit(r float64) specEdit {
	return specEdit{fmt.Sprintf("rate=%g", r), func(s *spec.Deployment) { s.Workload.ArrivalRatePerS = r },
		func(in *input.Input) { in.Workload.ArrivalRatePerS = r }}
}

// bandwidthEdit is one NIC of bw Gbit/s per node (bandwidthFor's variant).
func bandwidthEdit(bw float64) specEdit {
	return specEdit{fmt.Sprintf("inter=%g", bw), func(s *spec.Deployment) {
		s.Hardware.Network.InterNode.BandwidthGbitPerS, s.Hardware.Network.InterNode.NICsPerNode = bw, 1
	}, func(in *input.Input) { in.Network.InterGbitPerSPerNIC, in.Network.NICsPerNode = bw, 1 }}
}

// both applies a, then b.
func both(a, b specEdit) specEdit {
	e := specEdit{key: a.key + "+" + b.key, edit: func(s *spec.Deployment) { a.edit(s); b.edit(s) }}
	if a.direct != nil && b.direct != nil {
		e.direct = func(in *input.Input) { a.direct(in); b.direct(in) }
	}
	return e
}

// wouldPassCheck re-simulates the lines of failing verdicts: the
// deployment's spec edited as a line says is resolved again
// (resolve.FromSpec, input.FromResolved, as withBackend does), its memory
// estimated and the verdict's scenario simulated with the same code as the
// verdict (simulateScenario), at verifyBudgetDivisor less work than one of
// check's scenarios. A line is printed as a suggestion only when that run
// meets the target it names. Runs are remembered by edit and input length
// (the percentiles of one length share them), and at most
// wouldPassMaxRuns run per check: the rest are said to be unverified.
type wouldPassCheck struct {
	in    *input.Input
	opt   Options
	memo  map[string]*SimScenario
	runs  int
	scens int
	// full holds the confirmations (confirm): the edited deployment's
	// scenario run as check runs it on the applied spec, with the input it
	// ran on; fulls counts them (wouldPassMaxConfirms).
	full  map[string]*confirmed
	fulls int
	// now are the check's own verdicts, judged before any line (nil: not
	// known): a line's change is judged on every one of them
	// (sideEffects), not only on the verdict it is for.
	now []Verdict
	// ahead and aheadFull are screening runs and confirmations simulated
	// before they were asked for, side by side (prefetchMeets): run and
	// confirm take them when they reach them and count them against their
	// budgets then, as if they had run them there, so a check prints what
	// it printed running them one after another.
	ahead     map[string]screened
	aheadFull map[string]confirmedRun
	// taken counts the runs and confirmations taken from ahead.
	taken int
}

// usePrefetchMeets switches prefetchMeets on (off: every run and
// confirmation is simulated where it is asked for, one after another —
// the same figures, which TestPrefetchMeetsSameLines holds it to).
var usePrefetchMeets = true

// screened is a screening run (screen): nil when it could not run, and
// whether it ran (counts against wouldPassMaxRuns).
type screened struct {
	sc  *SimScenario
	ran bool
}

// confirmedRun is a confirmation (confirmRun) and whether it ran.
type confirmedRun struct {
	c   *confirmed
	ran bool
}

// confirmed is a confirmation run and the deployment it ran on.
type confirmed struct {
	sc SimScenario
	in input.Input
	kv int64
}

// wouldPassMaxConfirms bounds the confirmations of one check: each costs
// one of check's own scenarios.
const wouldPassMaxConfirms = 6

// wouldPassRuns is how many runs of a check scenario's length a
// verification simulates (more cost one such run each; the reference's one
// line costs about 0.03 s per run).
const wouldPassRuns = 1

// wouldPassMaxRuns bounds the verification runs of one check.
const wouldPassMaxRuns = 8

func newWouldPassCheck(in *input.Input, opt Options, scenarios int) *wouldPassCheck {
	return &wouldPassCheck{in: in, opt: opt, memo: map[string]*SimScenario{}, scens: scenarios, full: map[string]*confirmed{},
		ahead: map[string]screened{}, aheadFull: map[string]confirmedRun{}}
}

// run simulates the edited deployment's scenario of n input tokens (nil:
// the spec cannot be edited or resolved, nothing fits, or the run budget
// is spent).
func (w *wouldPassCheck) run(e specEdit, n int) *SimScenario {
	if w == nil {
		return nil
	}
	key := e.at(n)
	if s, ok := w.memo[key]; ok {
		return s
	}
	if w.runs >= wouldPassMaxRuns {
		return nil
	}
	r, ok := w.ahead[key]
	if ok {
		delete(w.ahead, key)
		w.taken++
	} else {
		r = w.screen(e, n)
	}
	if r.ran {
		w.runs++
	}
	w.memo[key] = r.sc
	return r.sc
}

// screen is run's simulation of e at n input tokens (not ran, nil sc: the
// spec cannot be edited or resolved, or nothing fits). It only reads w,
// so several may run at once (prefetchMeets).
func (w *wouldPassCheck) screen(e specEdit, n int) screened {
	alt, ok := w.edited(e)
	if !ok {
		return screened{}
	}
	m := memory.Estimate(&alt)
	kv := kvOf(&m)
	if kv <= 0 {
		return screened{}
	}
	opt := w.opt
	opt.NoAdvice, opt.kv = true, seqCostOf(&m)
	opt.workBudget = sim.StepBudget * fullScenarios / int64(max(fullScenarios, w.scens)) / verifyBudgetDivisor
	// One run as long as one of the check's own (its warm-up, and
	// max(1000, two per session) requests measured) at a third of its
	// work: runs of fewer requests than that read a faster first stretch
	// (20,014 tokens/s at 3840 sessions where the check of that spec gives
	// 16,804; 753 where it gives 696). One run's percentile of a
	// two-humped TTFT (prompts that find a prefill running, or not) can
	// still land far from the pooled runs of a check (416 ms against
	// 649 ms), on the passing side as often as on the other.
	sessions := max(1, alt.Workload.Concurrency)
	opt.Replications, opt.fullWarmup = wouldPassRuns, true
	opt.Requests = wouldPassRuns * max(loadSearchRequests, 2*sessions)
	sc := simulateScenario(&alt, perf.NewStepModel(perf.SetupFromInput(&alt)), kv, n, opt)
	if sc.Result.Requests < opt.Requests*9/10 {
		// stopped at its work ceiling: a first stretch, which settles nothing
		sc.Result.Truncated = true
	}
	return screened{sc: &sc, ran: true}
}

// confirm runs the edited deployment's scenario of n input tokens as
// check on the applied spec runs it — the check's options, its work share
// and warm-up, every replication — so a printed line's figure is the one
// that check prints (the short screening run, run, said 8041 tokens/s at
// 656 sessions where check on that spec gives 7,882 and an uncertain
// verdict; QA session 37). nil: not simulated (the confirmation budget is
// spent, or the spec cannot be edited).
func (w *wouldPassCheck) confirm(e specEdit, n int) *confirmed {
	key := e.at(n)
	if c, ok := w.full[key]; ok {
		return c
	}
	if w.fulls >= wouldPassMaxConfirms {
		return nil
	}
	a, ok := w.aheadFull[key]
	if ok {
		delete(w.aheadFull, key)
		w.taken++
	} else {
		a.c, a.ran = w.confirmRun(e, n)
	}
	if a.ran {
		w.fulls++
	}
	w.full[key] = a.c
	return a.c
}

// prefetchMeets simulates ahead, side by side, what meets would simulate
// for v under each of edits in turn (the candidates of one line, tried in
// that order until one holds): first the screening runs not yet known,
// then the confirmations of those whose screening meets v — each within
// what is left of its budget were all of them spent. run and confirm take
// them from there as they reach them (ahead, aheadFull), so the figures
// and the budgets' use are those of running them one after another; a
// candidate after the one that holds was simulated for nothing (CPU, not
// time, where cores are free). On a failing TTFT target whose load search
// confirms three loads (qa43's Llama-3.3-70B FP8 on 4 × H100) those were
// three check scenarios in a row.
func (w *wouldPassCheck) prefetchMeets(v *Verdict, edits []specEdit) {
	w.prefetchTries([]meetsTry{{v, edits}})
}

// meetsTry is a verdict and the edits a line will try on it with meets.
type meetsTry struct {
	v     *Verdict
	edits []specEdit
}

// prefetchTries is prefetchMeets for several verdicts' lines at once (the
// alternatives every failing verdict tries: prefetchAlternatives), their
// screening runs and then their confirmations each side by side.
func (w *wouldPassCheck) prefetchTries(tries []meetsTry) {
	if w == nil || !usePrefetchMeets {
		return
	}
	type job struct {
		e specEdit
		n int
	}
	var todo []job
	seen := map[string]bool{}
	for _, t := range tries {
		n := verdictInputTokens(w.in, t.v)
		for _, e := range t.edits {
			key := e.at(n)
			_, done := w.memo[key]
			_, ahead := w.ahead[key]
			if e.edit == nil || done || ahead || seen[key] || w.runs+len(todo) >= wouldPassMaxRuns {
				continue
			}
			seen[key] = true
			todo = append(todo, job{e, n})
		}
	}
	scr := make([]screened, len(todo))
	sideBySide(len(todo), func(i int) { scr[i] = w.screen(todo[i].e, todo[i].n) })
	for i, j := range todo {
		w.ahead[j.e.at(j.n)] = scr[i]
	}
	todo, seen = todo[:0], map[string]bool{}
	for _, t := range tries {
		n := verdictInputTokens(w.in, t.v)
		for _, e := range t.edits {
			key := e.at(n)
			_, done := w.full[key]
			_, ahead := w.aheadFull[key]
			if e.edit == nil || done || ahead || seen[key] || !w.screenMeets(t.v, key) || w.fulls+len(todo) >= wouldPassMaxConfirms {
				continue
			}
			seen[key] = true
			todo = append(todo, job{e, n})
		}
	}
	if len(todo) < 2 {
		return // one confirmation gains nothing from a goroutine: confirm runs it
	}
	conf := make([]confirmedRun, len(todo))
	sideBySide(len(todo), func(i int) { conf[i].c, conf[i].ran = w.confirmRun(todo[i].e, todo[i].n) })
	for i, j := range todo {
		w.aheadFull[j.e.at(j.n)] = conf[i]
	}
}

// screenMeets says the screening run of key, known (run) or simulated
// ahead, meets v as meets judges it (so meets would confirm it).
func (w *wouldPassCheck) screenMeets(v *Verdict, key string) bool {
	s, ok := w.memo[key]
	if !ok {
		s = w.ahead[key].sc
	}
	if s == nil || s.Result.Truncated || s.Result.Overloaded {
		return false
	}
	_, pass := w.figure(v, s.Result)
	return pass
}

// sideBySide calls f(0) … f(k-1) on goroutines of their own and waits for
// them (one call runs on this goroutine).
func sideBySide(k int, f func(int)) {
	if k == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for i := range k {
		wg.Go(func() { f(i) })
	}
	wg.Wait()
}

// prefetchConfirms runs confirm's scenarios of e at the distinct input
// lengths ns not yet run, side by side (as check runs its own scenarios),
// within the confirmation budget, and keeps them for confirm. confirmRun
// only reads w; the bookkeeping stays on this goroutine.
func (w *wouldPassCheck) prefetchConfirms(e specEdit, ns []int) {
	var todo []int
	seen := map[int]bool{}
	for _, n := range ns {
		key := e.at(n)
		if _, done := w.full[key]; done || seen[n] || w.fulls+len(todo) >= wouldPassMaxConfirms {
			continue
		}
		seen[n] = true
		todo = append(todo, n)
	}
	if len(todo) < 2 {
		return // one run gains nothing from a goroutine: confirm runs it
	}
	out := make([]*confirmed, len(todo))
	ran := make([]bool, len(todo))
	var wg sync.WaitGroup
	for i, n := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], ran[i] = w.confirmRun(e, n)
		}()
	}
	wg.Wait()
	for i, n := range todo {
		if ran[i] {
			w.fulls++
		}
		w.full[e.at(n)] = out[i]
	}
}

// confirmRun is confirm's scenario of e at n input tokens (ran: it was
// simulated; nil, false when the spec cannot be edited or holds no KV).
// It only reads w, so several may run at once (prefetchConfirms).
func (w *wouldPassCheck) confirmRun(e specEdit, n int) (*confirmed, bool) {
	alt, ok := w.edited(e)
	if !ok {
		return nil, false
	}
	m := memory.Estimate(&alt)
	kv := kvOf(&m)
	if kv <= 0 {
		return nil, false
	}
	opt := w.opt
	opt.NoAdvice, opt.kv, opt.fullWarmup = true, seqCostOf(&m), false
	// simulateScenarios' share of the work and of the requests
	lengths := len(perfInputLengths(&alt))
	share := func(x int64) int64 { return x * fullScenarios / int64(max(fullScenarios, lengths)) }
	opt.workBudget = share(sim.StepBudget)
	if opt.WorkShare > 0 && opt.WorkShare < 1 {
		opt.workBudget = max(1, int64(float64(opt.workBudget)*opt.WorkShare))
	}
	if opt.Requests > 0 {
		opt.Requests = max(sim.MinMeasured, int(share(int64(opt.Requests))))
	}
	return &confirmed{sc: simulateScenario(&alt, perf.NewStepModel(perf.SetupFromInput(&alt)), kv, n, opt), in: alt, kv: kv}, true
}

// edited is the deployment with e applied: its spec edited and resolved
// again where it has one, else the input edited (e.direct).
func (w *wouldPassCheck) edited(e specEdit) (input.Input, bool) {
	d := w.in.Resolved()
	if d == nil || d.Spec == nil || d.Spec.Parallelism.Auto {
		if e.direct == nil {
			return input.Input{}, false
		}
		alt := *w.in
		e.direct(&alt)
		return alt, true
	}
	if d.Spec.Disaggregation != nil {
		return input.Input{}, false
	}
	s := *d.Spec
	s.Hardware.Nodes = append([]spec.Node(nil), s.Hardware.Nodes...)
	e.edit(&s)
	r, err := resolve.FromSpec(&s)
	if err != nil {
		return input.Input{}, false
	}
	return input.FromResolved(r), true
}

// meets re-simulates v's scenario with e applied: the figure v judges and
// whether it meets v's target (false, 0 when it could not be simulated or
// the run was cut short or overloaded). A short screening run (run) that
// meets it is confirmed by the run check makes of the applied spec
// (confirm), whose figure is the one returned: a line is printed as
// meeting the target only when that run does (check on the applied spec
// prints the same figure). Every passing screening run is confirmed, how
// clear of the target it is notwithstanding: one screening run is one
// replication where check pools 32, and at a KV cache's edge they differ
// by more than any margin (QA41b D3: 21 sessions of gpt-oss-120b on one
// H100 screened at a TTFT p99 of 85.9 ms, where check of that spec, 32
// runs, predicts 1.22 s: a run that preempts no session is as likely as
// one that does). Whether check's band around it passes too is judged's.
func (w *wouldPassCheck) meets(v *Verdict, e specEdit) (float64, bool) {
	if w == nil || e.edit == nil {
		return 0, false
	}
	n := verdictInputTokens(w.in, v)
	s := w.run(e, n)
	if s == nil || s.Result.Truncated || s.Result.Overloaded {
		return 0, false
	}
	got, pass := w.figure(v, s.Result)
	if !pass {
		return got, false
	}
	c := w.confirm(e, n)
	if c == nil || c.sc.Result.Overloaded || c.sc.Result.Truncated {
		// not confirmed: the screening figure, not claimed to meet it
		return got, false
	}
	return w.figure(v, c.sc.Result)
}

// settle is meets, except where e's screening run stopped at its work
// ceiling before it measured a run's worth of requests (screen's
// Truncated): such a run settles nothing, so check's own run of the
// applied spec (confirm) gives the figure and whether it meets v. A
// deployment whose steps are costly (DP32 over an NVL72: qa45b F3) cut
// every screening run so, and the load a search found was printed as
// "not re-simulated" at 1.34 s where check of that spec gives 3.5 s.
func (w *wouldPassCheck) settle(v *Verdict, e specEdit) (float64, bool) {
	got, pass := w.meets(v, e)
	if pass || got > 0 || w == nil || e.edit == nil {
		return got, pass
	}
	n := verdictInputTokens(w.in, v)
	if s := w.memo[e.at(n)]; s == nil || !s.Result.Truncated || s.Result.Overloaded {
		return got, pass
	}
	c := w.confirm(e, n)
	if c == nil || c.sc.Result.Overloaded || c.sc.Result.Truncated {
		return 0, false
	}
	return w.figure(v, c.sc.Result)
}

// judged is v as check on the spec with e applied judges it: the figure
// of check's own run of that spec (confirm: its seed, settings and
// replications) and the verdict check's judge gives it, band and all
// (ok false: the applied spec's scenario was not confirmed, or its run was
// cut short or overloaded, which check would not call a pass).
func (w *wouldPassCheck) judged(v *Verdict, e specEdit) (Verdict, bool) {
	if w == nil || e.edit == nil {
		return Verdict{}, false
	}
	n := verdictInputTokens(w.in, v)
	c := w.full[e.at(n)]
	if c == nil {
		c = w.confirm(e, n)
	}
	if c == nil || c.sc.Result.Overloaded || c.sc.Result.Truncated {
		return Verdict{}, false
	}
	got, _ := w.figure(v, c.sc.Result)
	j := Verdict{Name: v.Name, Target: v.Target, Predicted: got, Unit: v.Unit}
	switch {
	case v.Unit == "tokens/s":
		judge(&j, &c.in, ThroughputRegime(&c.in), true, true)
	case strings.HasPrefix(v.Name, "TPOT"):
		if OneOutputToken(&c.in) {
			return oneTokenTPOT(&c.in), true
		}
		judge(&j, &c.in, TPOTRegime(&c.in), false, true)
	case strings.HasPrefix(v.Name, "TTFT"):
		sm := perf.NewStepModel(perf.SetupFromInput(&c.in))
		idle := idlePrefill(sm, &c.in, n).TTFTS // the cached prefix read, not computed, as check prices it
		judgeTTFT(&j, &c.in, strings.Fields(v.Name)[1], true, openLoad(&c.sc, idle))
	default:
		return Verdict{}, false
	}
	return j, true
}

// bandCaveat is what a confirmed line (meets) adds: when check on the
// applied spec would not call its verdict a pass (the band around the
// figure straddles the target, so check says uncertain), that; and what
// the change does to the check's other verdicts (sideEffects).
func (w *wouldPassCheck) bandCaveat(v *Verdict, e specEdit) string {
	j, ok := w.judged(v, e)
	if !ok {
		return ""
	}
	out, promised := "", VerdictPass
	if _, pass := w.figure(v, w.full[e.at(verdictInputTokens(w.in, v))].sc.Result); pass && j.Verdict != VerdictPass && j.Band != nil {
		out = fmt.Sprintf("; check on that spec would still call it uncertain: its band, %s, straddles the target", textfmt.Band(j.Band.Low, j.Band.High, v.Unit))
		promised = j.Verdict
	}
	return out + w.offer(v, e, promised)
}

// offeredClaim is a line's promise (for the applied-spec property test):
// check on the spec with edit applied gives verdict Name the verdict
// Promised, and fails none of the check's other verdicts that did not
// fail but those in Breaks (and those in Unchecked, which the line says
// it did not judge).
type offeredClaim struct {
	Name, Promised    string
	Breaks, Unchecked []string
	edit              specEdit
}

// recordOffer, when set (tests only), receives every claim a line makes.
var recordOffer func(w *wouldPassCheck, c offeredClaim)

// offer is the clause of a line offering e for v with the verdict
// promised: what the change does to the check's other verdicts
// (sideEffects), the claim recorded for the property test.
func (w *wouldPassCheck) offer(v *Verdict, e specEdit, promised string) string {
	names, unchecked, text := w.sideEffects(v, e)
	if recordOffer != nil {
		recordOffer(w, offeredClaim{Name: v.Name, Promised: promised, Breaks: names, Unchecked: unchecked, edit: e})
	}
	return text
}

// sideEffects is what a line's change e, offered for verdict v, does to
// the check's other verdicts (QA41b D2, the P/D case: more decode
// instances met TPOT and sank both TTFT targets, unsaid): every one that
// did not fail is judged on the applied spec as check judges it (judged),
// and the clause names those that would then fail, or those it could not
// judge within the check's confirmation budget ("": none).
func (w *wouldPassCheck) sideEffects(v *Verdict, e specEdit) (fail, unchecked []string, text string) {
	if w == nil {
		return nil, nil, ""
	}
	var names []string
	var fails, unjudged []string
	for i := range w.now {
		o := &w.now[i]
		if o.Name == v.Name || o.Verdict == VerdictFail || o.NotPredicted != "" {
			continue
		}
		j, ok := w.judged(o, e)
		switch {
		case !ok:
			unjudged = append(unjudged, o.Name)
		case j.Verdict == VerdictFail:
			names = append(names, o.Name)
			fails = append(fails, fmt.Sprintf("%s would then fail: %s (now %s, %s)", o.Name, textfmt.Quantity(j.Predicted, o.Unit), textfmt.Quantity(o.Predicted, o.Unit), strings.ToUpper(o.Verdict)))
		}
	}
	out := ""
	if len(fails) > 0 {
		out = "; but " + strings.Join(fails, "; ")
	}
	if len(unjudged) > 0 {
		out += "; not checked on that spec: " + strings.Join(unjudged, ", ")
	}
	return names, unjudged, out
}

// figure is the figure v judges in r, and whether it meets v's target.
func (w *wouldPassCheck) figure(v *Verdict, r sim.Result) (float64, bool) {
	var got float64
	switch {
	case v.Unit == "tokens/s":
		got = r.OutputTokPerS
		if w.in.SLO.ThroughputCounts == "total" {
			got = r.TotalTokPerS
		}
		return got, got >= v.Target
	case strings.HasPrefix(v.Name, "TPOT"):
		got = r.TPOT.Mean
	case strings.HasPrefix(v.Name, "TTFT"):
		q := strings.Fields(v.Name)[1]
		got = map[string]float64{"p50": r.TTFT.P50, "p95": r.TTFT.P95, "p99": r.TTFT.P99}[q]
	default:
		return 0, false
	}
	return got, got > 0 && got <= v.Target
}

// verdictInputTokens is the prompt length of v's scenario: the TTFT
// target's, else the workload's.
func verdictInputTokens(in *input.Input, v *Verdict) int {
	if i := strings.Index(v.Name, " at "); i >= 0 && strings.HasPrefix(v.Name, "TTFT") {
		var n int
		if _, err := fmt.Sscanf(v.Name[i+4:], "%d", &n); err == nil {
			return n
		}
	}
	return in.Workload.InputTokens
}
