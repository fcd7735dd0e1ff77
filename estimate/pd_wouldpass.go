package estimate

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/layouts"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// UsePDWouldPass gives a P/D check's failing and uncertain verdicts their
// "what it would take" (slo.Verdict.WouldPass), as colocated verdicts have
// (QA session 38: a FAIL throughput verdict, 2,285 against 5,000 tokens/s,
// came with none). Every line's figure is the P/D model's on the spec with
// the line applied (estimate.EvaluatePD, as check evaluates that spec;
// TestPDWouldPassApplied), or the colocated check's for the colocated
// line.
var UsePDWouldPass = true

// pdWouldPassEvals bounds the applied specs one check evaluates (each is
// one P/D evaluation: two or three pool simulations per scenario).
const pdWouldPassEvals = 8

// pdWouldPassSessionTries is how many session counts the sessions line
// evaluates (Little's law's, then the shortfall's).
const pdWouldPassSessionTries = 3

// pdEdit is one change to a P/D spec a line proposes.
type pdEdit struct {
	// what the line says the change is (spec keys and values)
	what string
	edit func(*spec.Deployment)
}

// pdClaim is one line and the figure it states (for the applied-spec
// test): the verdict named, its predicted figure on the applied spec, and
// the edit (nil edit: the colocated layout, check of the spec without
// disaggregation).
type pdClaim struct {
	line     string
	verdict  string
	figure   float64
	verdict2 string
	edit     *pdEdit
	// breaks names the spec's other verdicts that did not fail and fail
	// with the edit applied (the line says so: QA41b D2, more decode
	// instances met TPOT and sank both TTFT targets unsaid).
	breaks []string
}

// pdAdvisor evaluates applied edits of one P/D check.
type pdAdvisor struct {
	d     *resolve.Deployment
	opt   PerfOptions
	evals int
	// nowTokPerS is the spec's own output tokens/s (the instance lines of
	// latency verdicts state the throughput they trade).
	nowTokPerS float64
	memo       map[string][]slo.Verdict
	rep        map[string]*pd.Report
	// decodeQueues: the decode pool's KV cache does not hold its sessions
	// at once (its EST103), so fewer, larger instances, each with more
	// KV, are tried for it too (moreInstances).
	decodeQueues bool
	// now are the spec's own verdicts (as judged before any line): an
	// applied edit is judged on all of them (sideEffects).
	now []slo.Verdict
}

// sideEffects is what an edit proposed for verdict v does to the spec's
// other verdicts (after: the P/D model's verdicts on the applied spec, as
// check judges that spec): the names of those that did not fail and
// would, and a clause saying so with their figures ("" when none).
func (a *pdAdvisor) sideEffects(v *slo.Verdict, after []slo.Verdict) ([]string, string) {
	return brokenVerdicts(a.now, v, after)
}

// brokenVerdicts is sideEffects over verdicts now (the spec's) and after
// (the applied spec's).
func brokenVerdicts(now []slo.Verdict, v *slo.Verdict, after []slo.Verdict) ([]string, string) {
	var names, parts []string
	for i := range now {
		w := &now[i]
		if w.Name == v.Name || w.Verdict == slo.VerdictFail {
			continue
		}
		x := verdictNamed(after, w.Name)
		if x == nil || x.Verdict != slo.VerdictFail {
			continue
		}
		names = append(names, w.Name)
		got := "no figure"
		if x.Predicted > 0 && !x.Unbounded {
			got = figure(x, x.Predicted)
		}
		parts = append(parts, fmt.Sprintf("%s would then fail: %s (now %s, %s)", w.Name, got, figure(w, w.Predicted), strings.ToUpper(w.Verdict)))
	}
	if len(names) == 0 {
		return nil, ""
	}
	return names, "; but " + strings.Join(parts, "; ")
}

// withSideEffects is claim c (an edit's, its applied verdicts after)
// with the verdicts it breaks named in its line.
func (a *pdAdvisor) withSideEffects(c pdClaim, v *slo.Verdict, after []slo.Verdict) pdClaim {
	names, text := a.sideEffects(v, after)
	c.breaks, c.line = names, c.line+text
	return c
}

// evaluate is the P/D model's verdicts on d's spec with e applied (nil:
// the spec cannot be edited or resolved, or the budget is spent).
func (a *pdAdvisor) evaluate(e pdEdit) ([]slo.Verdict, *pd.Report) {
	if vs, ok := a.memo[e.what]; ok {
		return vs, a.rep[e.what]
	}
	if a.evals >= pdWouldPassEvals {
		return nil, nil
	}
	d, ok := editPD(a.d, e)
	if !ok {
		a.memo[e.what] = nil
		return nil, nil
	}
	pre, dec := input.FromResolved(d.PD.Roles[0].Deployment), input.FromResolved(d.PD.Roles[1].Deployment)
	rep, vs := EvaluatePD(&pre, &dec, d.PD.Connector.Name, d.PD.SameNode(), d.PD.Router.Kind, a.opt)
	if len(rep.Scenarios) > 0 {
		a.evals++ // a pool that holds no KV block is not simulated
	}
	// judged as CheckPD judges the spec: a line whose pool would not start
	// has no figure (Predicted 0), so no line proposes it
	dm := memory.Estimate(&dec)
	vs, _ = PoolsNotStarting(vs, PoolFindings{spec.RolePrefill, pd.PrefillMemoryFindings(&pre, &rep)}, PoolFindings{spec.RoleDecode, memory.Findings(&dec, &dm)})
	a.memo[e.what], a.rep[e.what] = vs, &rep
	return vs, &rep
}

// budgetSpent reports whether evaluating e would find the what-if budget
// spent (pdWouldPassEvals), so that a nil answer means "not evaluated",
// not "does not start".
func (a *pdAdvisor) budgetSpent(e pdEdit) bool {
	_, memo := a.memo[e.what]
	return !memo && a.evals >= pdWouldPassEvals
}

// editPD is d's spec with e applied, resolved as check resolves it (the
// deployment's calibration on both pools, as cmd/vlaunch's checkPD
// gives them).
func editPD(d *resolve.Deployment, e pdEdit) (*resolve.Deployment, bool) {
	if d == nil || d.Spec == nil || d.Spec.Disaggregation == nil {
		return nil, false
	}
	s := *d.Spec
	s.Hardware.Nodes = append([]spec.Node(nil), s.Hardware.Nodes...)
	dis := *s.Disaggregation
	dis.Prefill.Nodes = append([]string(nil), dis.Prefill.Nodes...)
	dis.Decode.Nodes = append([]string(nil), dis.Decode.Nodes...)
	s.Disaggregation = &dis
	s.SLO.TTFT = append(s.SLO.TTFT[:0:0], s.SLO.TTFT...)
	e.edit(&s)
	r, err := resolve.FromSpec(&s)
	if err != nil || r.PD == nil || len(r.PD.Roles) != 2 {
		return nil, false
	}
	pdr := *r.PD
	pdr.Roles = append([]resolve.Role(nil), r.PD.Roles...)
	for i := range pdr.Roles {
		x := *pdr.Roles[i].Deployment
		x.Calibration = d.Calibration
		pdr.Roles[i].Deployment = &x
	}
	r.PD = &pdr
	return r, true
}

// verdictNamed is the verdict of vs called name (nil: none).
func verdictNamed(vs []slo.Verdict, name string) *slo.Verdict {
	for i := range vs {
		if vs[i].Name == name {
			return &vs[i]
		}
	}
	return nil
}

// pdWouldPass adds what it would take to every failing or uncertain
// verdict of a P/D check of d (report rep, its colocated comparison
// rep.Colocated set): for a throughput target a closed loop's sessions
// do not reach, more sessions (Little's law's count, then the
// shortfall's, each evaluated); for a verdict a pool binds (the rate, a
// TTFT the prefill pool's queue or prompt dominates, TPOT), more instances
// of that pool on its own GPUs (layouts.All on the pool's nodes, the
// layouts plan's P/D candidates take, placeable and fitting); and the
// colocated layout on the same GPUs when its check meets the target.
func pdWouldPass(d *resolve.Deployment, rep *pd.Report, vs []slo.Verdict, opt PerfOptions) []pdClaim {
	if !UsePDWouldPass || d == nil || d.Spec == nil || d.Spec.Disaggregation == nil {
		return nil
	}
	if notStarting(vs) {
		return colocatedOnly(rep.Colocated, vs)
	}
	if len(rep.Scenarios) == 0 {
		return nil
	}
	opt.NoAdvice = true
	a := &pdAdvisor{d: d, opt: opt, memo: map[string][]slo.Verdict{}, rep: map[string]*pd.Report{}, now: cloneVerdicts(vs)}
	if dec := input.FromResolved(d.PD.Roles[1].Deployment); dec.Model != nil {
		m := memory.Estimate(&dec)
		a.decodeQueues = !m.Capacity.Fits
	}
	if sc := rep.Scenario(d.Workload.InputTokens); sc != nil {
		a.nowTokPerS = sc.OutputTokPerS
	}
	perVerdict := make([][]pdClaim, len(vs))
	for _, i := range failingFirst(vs) {
		v := &vs[i]
		if v.Verdict != slo.VerdictFail && v.Verdict != slo.VerdictUncertain || v.Unbounded && v.Predicted <= 0 && v.Binding == slo.BindKV {
			continue
		}
		sc := rep.Scenario(d.Workload.InputTokens)
		var got []pdClaim
		var base *pdEdit
		role := ""
		switch {
		case v.Unit == "tokens/s":
			if sc != nil && sc.Binding == pd.BindSessions && sc.Sessions > 0 && sc.Burst == 0 && v.Predicted < v.Target {
				c, bound := a.sessions(v, sc)
				got = append(got, c...)
				if role = roleOf(bound); role != "" && len(c) > 0 {
					base = c[len(c)-1].edit // the pool that binds at those sessions, with them
				}
			} else if sc != nil {
				role = roleOf(sc.Binding)
			}
		case v.Unit == "s" && strings.HasPrefix(v.Name, "TPOT"):
			role = spec.RoleDecode
		case v.Unit == "s" && v.Binding == pd.SideHandoff+": "+pd.PartTransfer && sc != nil:
			got = append(got, a.fasterNIC(v, sc)...)
		case v.Unit == "s" && strings.HasPrefix(v.Binding, "prefill"):
			role = spec.RolePrefill
		case v.Unit == "s" && (strings.HasPrefix(v.Binding, "decode") || strings.HasPrefix(v.Binding, "first decode")):
			role = spec.RoleDecode
		}
		if role != "" {
			got = append(got, a.moreInstances(v, role, base)...)
		}
		if c, ok := colocatedClaim(rep.Colocated, v, a.now); ok {
			got = append(got, c)
		}
		for _, c := range got {
			v.WouldPass = append(v.WouldPass, c.line)
		}
		perVerdict[i] = got
	}
	var claims []pdClaim
	for _, got := range perVerdict {
		claims = append(claims, got...)
	}
	return claims
}

// failingFirst is the order pdWouldPass advises vs in: the failing
// verdicts before the uncertain ones, each in the report's order, so that
// check's pdWouldPassEvals evaluations go to what fails first (after
// band45 an uncertain TPOT's layouts spent them all and a failing TTFT's
// went unevaluated: qa45b spec 01). The claims keep the report's order.
func failingFirst(vs []slo.Verdict) []int {
	var fail, rest []int
	for i := range vs {
		if vs[i].Verdict == slo.VerdictFail {
			fail = append(fail, i)
		} else {
			rest = append(rest, i)
		}
	}
	return append(fail, rest...)
}

// cloneVerdicts copies vs (their WouldPass lines are appended to later).
func cloneVerdicts(vs []slo.Verdict) []slo.Verdict {
	out := append([]slo.Verdict(nil), vs...)
	for i := range out {
		out[i].WouldPass = nil
	}
	return out
}

// roleOf is the pool a binding names ("" for none).
func roleOf(binding string) string {
	switch binding {
	case pd.BindPrefill:
		return spec.RolePrefill
	case pd.BindDecode:
		return spec.RoleDecode
	}
	return ""
}

// figure formats a verdict's figure in its unit.
func figure(v *slo.Verdict, x float64) string {
	if v.Unit == "tokens/s" {
		return textfmt.Thousands(int64(math.Round(x))) + " tokens/s"
	}
	return textfmt.Seconds(x)
}

// concurrencyPD is workload.concurrency: n on a P/D spec.
func concurrencyPD(n int) pdEdit {
	return pdEdit{fmt.Sprintf("workload.concurrency: %d", n), func(s *spec.Deployment) { s.Workload.Concurrency = n }}
}

// clientCapPD is workload.client_max_concurrency: n on a P/D spec: the
// knob of an open loop held to a closed loop of its client's cap
// (Scenario.CapClosedLoop), where workload.concurrency moves nothing.
func clientCapPD(n int) pdEdit {
	return pdEdit{fmt.Sprintf("workload.client_max_concurrency: %d", n), func(s *spec.Deployment) { s.Workload.ClientMaxConcurrency = n }}
}

// sessionsKnob is the edit that sets a closed loop's sessions to n: the
// client's cap for a capped open loop, else workload.concurrency.
func sessionsKnob(sc *pd.Scenario, n int) pdEdit {
	if sc.CapClosedLoop {
		return clientCapPD(n)
	}
	return concurrencyPD(n)
}

// sessions is the sessions line of a throughput verdict v a closed loop's
// sessions bind (scenario sc): Little's law's count N × target ÷
// predicted (the request's time unchanged), evaluated; when it falls
// short, the count its shortfall points to, up to pdWouldPassSessionTries.
// bound is what binds the last count evaluated (a pool, when more
// sessions saturate it).
func (a *pdAdvisor) sessions(v *slo.Verdict, sc *pd.Scenario) (out []pdClaim, bound string) {
	n := sc.Sessions
	pred := v.Predicted
	tried := ""
	var last *pdClaim
	var lastVs []slo.Verdict // the applied spec's verdicts of last
	for range pdWouldPassSessionTries {
		next := int(math.Ceil(float64(n) * v.Target / pred))
		if next <= n {
			next = n + 1
		}
		e := sessionsKnob(sc, next)
		vs, rep := a.evaluate(e)
		w := verdictNamed(vs, v.Name)
		if w == nil || w.Predicted <= 0 {
			break
		}
		s := rep.Scenario(a.d.Workload.InputTokens)
		bound = ""
		if s != nil {
			bound = s.Binding
		}
		line := fmt.Sprintf("%s (now %d; Little's law: %d × %s ÷ %s): the P/D model on that spec gives %s (%s), bound by the %s",
			e.what, sc.Sessions, n, figure(v, v.Target), figure(v, pred), figure(v, w.Predicted), strings.ToUpper(w.Verdict), bound)
		if w.Verdict == slo.VerdictPass {
			return append(out, a.withSideEffects(pdClaim{line: strings.TrimSuffix(line+tried, ";"), verdict: v.Name, figure: w.Predicted, verdict2: w.Verdict, edit: &e}, v, vs)), bound
		}
		if bound != pd.BindSessions {
			// a pool saturates first: more sessions alone do not reach it
			return append(out, a.withSideEffects(pdClaim{line: strings.TrimSuffix(line+tried, ";") + ": more sessions alone do not reach the target", verdict: v.Name, figure: w.Predicted, verdict2: w.Verdict, edit: &e}, v, vs)), bound
		}
		last = &pdClaim{line: line, verdict: v.Name, figure: w.Predicted, verdict2: w.Verdict, edit: &e}
		lastVs = vs
		if tried == "" {
			tried = "; tried before it:"
		}
		tried += fmt.Sprintf(" %d sessions %s;", next, figure(v, w.Predicted))
		n, pred = next, w.Predicted
		if next >= 64*sc.Sessions {
			break
		}
	}
	if last != nil {
		// none of the counts tried meets it: the last one's figure
		last.line = strings.TrimSuffix(strings.Replace(last.line, "(now ", "(the last of "+fmt.Sprint(pdWouldPassSessionTries)+" counts tried; now ", 1), ";")
		last.line += ": more sessions alone are not shown to meet it"
		return append(out, a.withSideEffects(*last, v, lastVs)), bound
	}
	return out, bound
}

// nicRates are the per-NIC line rates (Gbit/s, one direction) the
// faster-NIC line tries: Ethernet's and InfiniBand's (EDR 100, HDR 200,
// NDR 400, XDR 800) port speeds.
var nicRates = []float64{25, 50, 100, 200, 400, 800}

// nicRate is hardware.network.inter_node.bandwidth_gbit_per_s: g.
func nicRate(g float64) pdEdit {
	return pdEdit{fmt.Sprintf("hardware.network.inter_node.bandwidth_gbit_per_s: %g", g),
		func(s *spec.Deployment) { s.Hardware.Network.InterNode.BandwidthGbitPerS = g }}
}

// fasterNIC is the line for a TTFT verdict v the KV transfer dominates
// (scenario sc), its hand-off over the NICs: the slowest line rate of
// nicRates above the spec's at which the P/D model on the spec with it
// passes v (the fastest evaluated first, then halving the rates between:
// TTFT only falls as the NICs get faster), or the fastest's figure when
// none does. Pools sharing a node move the KV over NVLink: no line.
func (a *pdAdvisor) fasterNIC(v *slo.Verdict, sc *pd.Scenario) []pdClaim {
	now := a.d.Network.InterGbitPerSPerNIC
	if a.d.PD.SameNode() || sc.Transfer.SameNode != nil || now <= 0 {
		return nil
	}
	var rates []float64
	for _, g := range nicRates {
		if g > now {
			rates = append(rates, g)
		}
	}
	if len(rates) == 0 {
		return nil
	}
	try := func(g float64) (pdClaim, bool) {
		e := nicRate(g)
		vs, rep := a.evaluate(e)
		w := verdictNamed(vs, v.Name)
		if w == nil || rep == nil || w.Predicted <= 0 || w.Unbounded {
			return pdClaim{}, false
		}
		transfer := ""
		if s := rep.Scenario(a.d.Workload.InputTokens); s != nil {
			transfer = fmt.Sprintf(", its KV transfer %s", textfmt.Seconds(s.TTFTParts.TransferS))
		}
		if w.Verdict != slo.VerdictPass {
			transfer += ": no NIC tried passes it alone" // the fastest is tried first: a failing claim is only ever returned for it
		}
		return a.withSideEffects(pdClaim{verdict: v.Name, figure: w.Predicted, verdict2: w.Verdict, edit: &e,
			line: fmt.Sprintf("%s per NIC (now %g; the KV transfer, %s of the mean TTFT, binds it): the P/D model on that spec gives %s (%s)%s",
				e.what, now, textfmt.Seconds(sc.TTFTParts.TransferS), figure(v, w.Predicted), strings.ToUpper(w.Verdict), transfer)}, v, vs), true
	}
	top, ok := try(rates[len(rates)-1])
	if !ok {
		return nil
	}
	if top.verdict2 != slo.VerdictPass {
		return []pdClaim{top}
	}
	best, lo, hi := top, 0, len(rates)-1 // rates[hi] passes; below lo none tried
	for lo < hi {
		mid := (lo + hi) / 2
		c, ok := try(rates[mid])
		if !ok {
			break
		}
		if c.verdict2 == slo.VerdictPass {
			best, hi = c, mid
		} else {
			lo = mid + 1
		}
	}
	return []pdClaim{best}
}

// poolSpec is the spec's pool of role.
func poolSpec(s *spec.Deployment, role string) *spec.Pool {
	if role == spec.RolePrefill {
		return &s.Disaggregation.Prefill
	}
	return &s.Disaggregation.Decode
}

// moreInstances is the line for verdict v bound by the pool of role: the
// pool's layouts on its own nodes with more instances than now — or, for
// a decode pool whose KV cache does not hold its sessions at once
// (EST103), fewer and larger ones too, each with more KV, as a colocated
// check's alternatives try larger TP (eight TP 1 decode engines of
// Llama-3.3-70B FP8 at 512 sessions were told "GPUs with more memory, or
// fewer sessions (not evaluated)") — (as plan's
// P/D candidates enumerate them: layouts.All, layouts.Placeable), each
// evaluated with the rest of the spec unchanged; the best by v's figure.
func (a *pdAdvisor) moreInstances(v *slo.Verdict, role string, base *pdEdit) []pdClaim {
	var r *resolve.Role
	for i := range a.d.PD.Roles {
		if a.d.PD.Roles[i].Name == role {
			r = &a.d.PD.Roles[i]
		}
	}
	if r == nil || a.d.PD.SameNode() {
		return nil // pools sharing a node: plan's split of it, not a pool's own nodes
	}
	p := poolSpec(a.d.Spec, role)
	var hosts []int
	for _, name := range p.Nodes {
		for _, n := range a.d.Nodes {
			if n.Name == name {
				hosts = append(hosts, n.GPUs)
			}
		}
	}
	if len(hosts) != len(p.Nodes) || len(hosts) == 0 {
		return nil
	}
	now := r.Deployment.Layout
	perNode := 0
	for _, h := range hosts {
		perNode = max(perNode, h)
	}
	var best *pdClaim
	var bestVs []slo.Verdict // the applied spec's verdicts of best
	fit, unevaluated := 0, 0
	ref := v.Predicted // the figure to beat: the spec's, or with base applied
	if base != nil {
		if vs, _ := a.evaluate(*base); verdictNamed(vs, v.Name) != nil {
			ref = verdictNamed(vs, v.Name).Predicted
		}
	}
	for _, l := range layouts.Placeable(layouts.All(len(hosts), perNode, a.d.Model), hosts, a.d.Release) {
		if l.ReplicaCount() == now.ReplicaCount() || l.ReplicaCount() < now.ReplicaCount() && !(role == spec.RoleDecode && a.decodeQueues) || l.TotalGPUs() != now.TotalGPUs() || l.PP != 1 {
			continue // fewer instances only for a decode pool whose KV queues its sessions (more KV each)
		}
		if t, err := resolve.ResolveDTypes(a.d.Model, a.d.Spec.Model.Weights, "auto"); err == nil && l.BlockSplitProblem(a.d.Model, t.FromCheckpoint) != "" {
			continue
		}
		e := pdEdit{fmt.Sprintf("disaggregation.%s: instances %d, parallelism tensor %d, data %d, expert %t", role, l.ReplicaCount(), l.TP, l.DP, l.EP),
			func(s *spec.Deployment) {
				q := poolSpec(s, role)
				q.Instances = l.ReplicaCount()
				q.Parallelism = spec.PoolParallelism{Tensor: l.TP, Pipeline: 1, Data: l.DP, Expert: l.EP}
				if !l.EP {
					q.VLLM.All2AllBackend = nil
				}
			}}
		if base != nil {
			b, x := *base, e
			e = pdEdit{b.what + " and " + x.what, func(s *spec.Deployment) { b.edit(s); x.edit(s) }}
		}
		spent := a.budgetSpent(e)
		vs, rep := a.evaluate(e)
		if rep == nil && spent {
			unevaluated++ // the what-if budget ran out: not known to fit or not
			continue
		}
		if rep == nil || len(rep.Scenarios) == 0 || notStarting(vs) {
			continue // a pool does not start on that layout
		}
		also := ""
		if sc := rep.Scenario(a.d.Workload.InputTokens); sc != nil && v.Unit != "tokens/s" {
			also = fmt.Sprintf(", at %s output tokens/s (now %s)", textfmt.Thousands(int64(math.Round(sc.OutputTokPerS))), textfmt.Thousands(int64(math.Round(a.nowTokPerS))))
		}
		fit++
		w := verdictNamed(vs, v.Name)
		if w == nil || w.Predicted <= 0 || w.Unbounded {
			continue
		}
		c := pdClaim{verdict: v.Name, figure: w.Predicted, verdict2: w.Verdict, edit: &e,
			line: fmt.Sprintf("%s (the %s pool now %d × TP %d · DP %d%s on the same %d GPUs): the P/D model on that spec gives %s (%s)",
				e.what, role, now.ReplicaCount(), now.TP, now.DP, map[bool]string{true: " · EP"}[now.EP], now.TotalGPUs(), figure(v, w.Predicted), strings.ToUpper(w.Verdict)) + also}
		c.breaks, _ = a.sideEffects(v, vs)
		if best == nil || betterLayout(v, ref, &c, best) {
			best, bestVs = &c, vs
		}
	}
	if best != nil && !(v.Unit == "tokens/s" && best.figure > ref || v.Unit != "tokens/s" && best.figure < ref) {
		// qa44c F7: no layout of the binding pool helps, so say what
		// would (not evaluated) rather than leave only a worse layout.
		best.line += fmt.Sprintf(", the best of the %d such layouts that fit, not better than %s without them; not evaluated: %s", fit, figure(v, ref), otherWords(v, role))
	} else if best != nil && base == nil && best.verdict2 == slo.VerdictFail {
		best.line = noLayoutMeets(v, role, now.TotalGPUs(), fit, best)
	}
	if best != nil {
		*best = a.withSideEffects(*best, v, bestVs)
	}
	if best == nil {
		switch {
		case fit == 0 && unevaluated > 0:
			// not "no layout fits": they were never evaluated (qa45b
			// spec 01's prefill TTFT, once the TPOT what-ifs spent the
			// budget, was told its 8 GPUs hold no other layout)
			return []pdClaim{{line: fmt.Sprintf("%s (not evaluated: %d layouts of the %s pool's %d GPUs with more instances were left unevaluated, check's %d P/D what-if evaluations being spent)",
				otherWords(v, role), unevaluated, role, now.TotalGPUs(), pdWouldPassEvals), verdict: v.Name}}
		case fit == 0:
			return a.noMoreInstances(v, role, r)
		}
		return nil
	}
	return []pdClaim{*best}
}

// noLayoutMeets is moreInstances' line when even its best layout fails
// v: no split of the pool's GPUs it tried meets the target, so the line
// says so and points at what it did not try, rather than offering a
// failing layout as what it would take (qa45b F6: DeepSeek-V4-Flash P/D on
// 2 × 8 B200, whose prefill pool runs at 102% of its capacity, was offered
// 8 × TP 1 at 6.98 s and 2 × DP 4 at 8.79 s against targets of 3 and
// 5 s, both FAIL). The best layout's figure stays, for what it gains.
func noLayoutMeets(v *slo.Verdict, role string, gpus, fit int, best *pdClaim) string {
	which := fmt.Sprintf("the best of the %d other layouts that fit", fit)
	if fit == 1 {
		which = "the only other layout that fits"
	}
	return fmt.Sprintf("no split of the %s pool's %d GPUs meets it: %s, %s, gives %s (FAIL) in the P/D model on that spec; not evaluated: %s",
		role, gpus, which, best.edit.what, figure(v, best.figure), otherWords(v, role))
}

// betterLayout reports whether layout claim c is a better line for
// verdict v than best: one that passes v and fails no verdict that did
// not fail first (QA41b D2: two TP 8 decode instances met TPOT and sank
// both TTFT targets, where a layout that meets all of them is the line to
// give), then one that passes v, then one that improves v's figure on ref
// (the figure without the layouts); within each, the fewer verdicts
// broken, then v's figure. Among layouts that improve nothing, the
// figure alone (the line then says none is better).
func betterLayout(v *slo.Verdict, ref float64, c, best *pdClaim) bool {
	higher := v.Unit == "tokens/s"
	rank := func(x *pdClaim) int {
		switch {
		case x.verdict2 == slo.VerdictPass && len(x.breaks) == 0:
			return 3
		case x.verdict2 == slo.VerdictPass:
			return 2
		case higher && x.figure > ref || !higher && x.figure < ref:
			return 1
		}
		return 0
	}
	if rc, rb := rank(c), rank(best); rc != rb {
		return rc > rb
	}
	if rank(c) > 0 && len(c.breaks) != len(best.breaks) {
		return len(c.breaks) < len(best.breaks)
	}
	return higher == (c.figure > best.figure)
}

// noMoreInstances is the line for verdict v bound by the pool of role
// (resolved r) when no layout of the pool's GPUs with more instances holds
// the model and a KV block per GPU: it does not propose them (newuser40's
// GLM-5 FP8 P/D check proposed more decode instances and ruled them out in
// the same line) but says what does. An FP8 KV cache on that pool (when
// its cache is not FP8 already) leaves each instance more KV: evaluated on
// the spec like every other line, and named when it improves v's figure.
// Otherwise, not evaluated, what moves v's figure: for the decode pool's
// TTFT (its KV admits the sessions) GPUs with more memory or fewer
// sessions, its throughput more memory or faster GPUs, its TPOT faster
// GPUs or fewer sessions; for the prefill pool more or faster GPUs for it
// (its steps bind: plan tries the splits).
func (a *pdAdvisor) noMoreInstances(v *slo.Verdict, role string, r *resolve.Role) []pdClaim {
	now := r.Deployment.Layout
	why := fmt.Sprintf("the %s pool's %d GPUs hold no layout with more instances than now (%d × TP %d · DP %d) that fits the model and a KV block per GPU",
		role, now.TotalGPUs(), now.ReplicaCount(), now.TP, now.DP)
	other := otherWords(v, role)
	if kv := r.Deployment.Engine.KVCacheDType.Value; !strings.HasPrefix(kv, "fp8") {
		e := pdEdit{fmt.Sprintf("disaggregation.%s.vllm.kv_cache_dtype: fp8", role), func(s *spec.Deployment) {
			fp8 := "fp8"
			poolSpec(s, role).VLLM.KVCacheDType = &fp8
		}}
		vs, _ := a.evaluate(e)
		w := verdictNamed(vs, v.Name)
		if w != nil && w.Predicted > 0 && !w.Unbounded && (v.Unit == "tokens/s") == (w.Predicted > v.Predicted) && w.Predicted != v.Predicted {
			line := fmt.Sprintf("%s (now %s: more KV per instance, since %s): the P/D model on that spec gives %s (%s)", e.what, kv, why, figure(v, w.Predicted), strings.ToUpper(w.Verdict))
			if w.Verdict != slo.VerdictPass {
				line += "; not evaluated: " + other
			}
			return []pdClaim{a.withSideEffects(pdClaim{line: line, verdict: v.Name, figure: w.Predicted, verdict2: w.Verdict, edit: &e}, v, vs)}
		}
	}
	return []pdClaim{{line: other + " (not evaluated): " + why, verdict: v.Name}}
}

// otherWords is what, not evaluated, moves verdict v's figure when the
// pool of role cannot take more instances (noMoreInstances) or none it
// can take does better (moreInstances).
func otherWords(v *slo.Verdict, role string) string {
	switch {
	case role == spec.RolePrefill:
		return "more of the GPUs for the prefill pool (`vlaunch plan` tries the splits), or faster GPUs"
	case v.Unit == "tokens/s":
		return "GPUs with more memory (more sessions decoding at once), or faster ones"
	case strings.HasPrefix(v.Name, "TPOT"):
		return "faster GPUs, or fewer sessions (smaller decode batches)"
	case strings.HasPrefix(v.Binding, pd.BindDecode) && !strings.Contains(v.Binding, "KV cache"):
		// the decode pool's step, not its KV, sets the admission wait
		// and the first decode step
		return "faster GPUs for the decode pool (its step sets the admission wait and the first decode step), or fewer sessions (smaller decode batches)"
	}
	return "GPUs with more memory, or fewer sessions" // a TTFT the decode pool's KV admission binds
}

// colocatedClaim is the colocated line: the same GPUs run colocated
// (resolve's Colocated, check's colocated path) meet v's target.
func colocatedClaim(c *pd.Colocated, v *slo.Verdict, now []slo.Verdict) (pdClaim, bool) {
	if c == nil || c.Error != "" {
		return pdClaim{}, false
	}
	w := verdictNamed(c.SLO, v.Name)
	if w == nil || w.Verdict != slo.VerdictPass {
		return pdClaim{}, false
	}
	names, text := brokenVerdicts(now, v, c.SLO)
	return pdClaim{verdict: v.Name, figure: w.Predicted, verdict2: w.Verdict, breaks: names,
		line: fmt.Sprintf("the same GPUs colocated (%s; the spec without disaggregation) meet it: %s (PASS)", c.Layout, figure(v, w.Predicted)) + text}, true
}

// notStarting reports whether verdicts vs are those of a P/D spec a pool
// of which does not start (PoolsNotStarting: every verdict unpredicted).
func notStarting(vs []slo.Verdict) bool {
	return len(vs) > 0 && vs[0].NotPredicted != ""
}

// colocatedOnly is what it would take for the verdicts of a P/D spec a
// pool of which does not start: only the colocated line (its check
// passes, so it starts), as a colocated deployment that does not start
// keeps only the alternatives evaluated as starting (slo.NotStarting);
// the other lines are about pools that do not start. The pool's memory
// findings say what makes it start.
func colocatedOnly(c *pd.Colocated, vs []slo.Verdict) []pdClaim {
	var claims []pdClaim
	for i := range vs {
		if cl, ok := colocatedClaim(c, &vs[i], nil); ok {
			vs[i].WouldPass = append(vs[i].WouldPass, cl.line)
			claims = append(claims, cl)
		}
	}
	return claims
}
