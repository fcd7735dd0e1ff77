package plan

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// colocatedBase is the deployment plan enumerates colocated candidates on
// and the spec's own settings. A colocated spec is its own base. A P/D
// spec's base is the same spec without its disaggregation block and with
// `parallelism: auto` (every layout of every node; the top-level vllm
// settings, which a colocated candidate keeps when Apply removes the
// block); its own settings are its pools (Settings.PD), the top-level
// values beside them.
func colocatedBase(d *resolve.Deployment) (*resolve.Deployment, Settings, error) {
	own := specSettings(d)
	if d.PD == nil {
		return d, own, nil
	}
	own.TP, own.PP, own.DP, own.EP, own.Replicas = 0, 0, 0, false, 0
	own.PD = ownPD(d.Spec)
	c := *d.Spec
	c.Disaggregation = nil
	c.Hardware.Nodes = d.Spec.GPUNodes() // a P/D router's CPU-only host runs no engine
	c.Parallelism = spec.Parallelism{Auto: true}
	base, err := resolve.Assemble(&c, d.Parts())
	return base, own, err
}

// pdCandidates are the P/D candidates of d (the spec's own pools first,
// for a P/D spec), their pools tried with the formats of space (the
// colocated search's, Space.dtypes), or none with why in sum.
func pdCandidates(d, base *resolve.Deployment, own Settings, space Space, sum *PDSummary) []*evaluated {
	if why := pdNotTried(d); why != "" {
		sum.NotTried = why
		return nil
	}
	if base == nil {
		base = d
	}
	s := newPDSearch(d, base, own, space.dtypes(own))
	var cands []Settings
	seen := map[string]bool{}
	if own.PD != nil {
		cands = append(cands, own)
		seen[pdKey(own.dtype(), own.PD)] = true
	}
	for _, c := range s.candidates() {
		if k := pdKey(c.dtype(), c.PD); !seen[k] {
			seen[k] = true
			cands = append(cands, c)
		}
	}
	out := s.evaluated(cands)
	sum.RefusedPools, sum.RefusedBecause = s.refused.Refused, s.refused.Reasons
	if own.PD != nil && len(out) > 0 {
		out[0].Own = true
	}
	sum.Tried, sum.Candidates = true, len(out)
	if len(out) == 0 {
		sum.NotTried = s.noneFits()
	}
	split := "P/D pools take whole nodes, the first nodes prefill (in the spec's order; every split up to 8 nodes, eighths and thirds of more)"
	if nodes := d.Spec.GPUNodes(); len(nodes) == 1 {
		split = "P/D pools share the one node, its first GPUs prefill (every count of them; resolve's split, as generate writes it: each instance on consecutive GPUs of the node)"
	} else if len(s.boundaries(nodes)) > 0 {
		split = "P/D pools take whole nodes, the first nodes prefill (in the spec's order; every split up to 8 nodes, eighths and thirds of more), or share one boundary node (every node, every count of its GPUs to prefill, its first ones; up to 8 nodes, not on Kubernetes): each instance of a pool sharing it inside one node, resolve's split, the hand-off priced as check does (over NVLink for the pairs both on the boundary node, over the NICs for the rest)"
	}
	sum.Notes = append(sum.Notes, split+"; both pools run one weight format and KV-cache dtype, each the colocated candidates run; the prefill pool tries its token budget at the release's and twice it, each pool every all-to-all backend where it runs; a pool choice that another on the same nodes beats on every figure of the bound is dropped",
		"P/D figures are `vlaunch check`'s model of a disaggregated deployment (estimate/pd: no constant fitted to P/D runs; its errors on published ones are in docs/calibration-pd.md); the Pareto front and the sensitivity are the colocated candidates'")
	if w := own.specWords(); w != "" && own.Speculative != specOff {
		sum.Notes = append(sum.Notes, pdSpeculativeNote(w))
	}
	return out
}

// pdSpeculativeNote says what the P/D candidates do with the spec's
// speculative decoding (words w): both pools keep it, as vLLM's NIXL
// compatibility matrix has it (docs/features/nixl_connector_compatibility.md,
// added by vLLM PR #38628: Spec Decode supported for dense, MLA and MoE
// models, footnote 1: P and D use the same speculation configuration —
// validate's SPEC rule on the pools); the first release it holds for is
// not verified. The draft length is not varied per pool: a P/D candidate
// multiplies its pools' choices, and the colocated search's draft lengths
// are the ones plan tries.
func pdSpeculativeNote(w string) string {
	return "P/D pools keep the spec's speculative decoding (" + w + ", both pools alike: vLLM's NIXL compatibility matrix, docs/features/nixl_connector_compatibility.md from PR #38628, supports it with the same speculation configuration on prefill and decode; the first release that holds is not verified); its draft length is varied for the colocated candidates only"
}

// pdKey identifies a P/D candidate: its pools and their formats.
func pdKey(f dtype, p *PDSettings) string {
	return fmt.Sprintf("%s|%s|%+v|%+v", f.weights, f.kv, p.Prefill, p.Decode)
}

// firstColocated is the best-ranked colocated candidate of the top list
// (the sensitivity and the unmet SLOs' hardware change probe colocated
// deployments), or the best simulated colocated one; nil when none is.
func firstColocated(top, fit []*evaluated) *evaluated {
	for _, e := range top {
		if e.pd == nil {
			return e
		}
	}
	for _, e := range rankActual(fit) {
		if e.pd == nil {
			return e
		}
	}
	return nil
}

// colocatedOnly are the colocated candidates of fit (the Pareto front's
// steady-decode basis has no P/D counterpart).
func colocatedOnly(fit []*evaluated) []*evaluated {
	var out []*evaluated
	for _, e := range fit {
		if e.pd == nil {
			out = append(out, e)
		}
	}
	return out
}

// finish counts the P/D simulations and says, when the best P/D candidate
// ranks below the best colocated one, why P/D does not pay here. The best
// colocated candidate is first (firstColocated: the one the top list
// ranks first, with the figures the list prints), so the line and the
// list name one candidate with one figure: the ranking's sort of every
// simulated candidate put a ranking run ahead of #1's confirmation when
// their figures were close (qwen35-pd-nixl-2x8b200: 351.8 against #1's
// 351.5 per GPU, two "best colocated", verify39).
//
// A line saying P/D pays (or only matches colocated) names the best P/D
// candidate by its place in the list, with the list's figure; when it is
// not listed (the spec's own pools, simulated for their own line after
// the list was fixed, or a P/D ranking below the list), the line names
// only what the list shows (pdNotListed).
func (s *PDSummary) finish(fit, top []*evaluated, first *evaluated, seed uint64, slots []sloSlot, st *Stats) {
	if !s.Tried {
		return
	}
	if s.Candidates == 0 {
		if s.NotTried == "" {
			s.NotTried = "P/D tried, none fits: no split of the nodes into two pools leaves both room for the weights and a KV cache"
		}
		return
	}
	var bestPD *evaluated
	bestColo := first
	for _, e := range rankActual(fit) {
		if e.pd != nil {
			s.Simulated++
			// One the generator refused is no P/D a user can run (qa43's
			// DeepSeek-V4-Flash: 4P+2D, refused, made the line vanish).
			if bestPD == nil && !e.refused {
				bestPD = e
			}
		}
	}
	if bestPD == nil || bestColo == nil || bestPD.pd.report == nil || len(bestPD.pd.report.Scenarios) == 0 {
		return
	}
	like := bestColo
	if formatsOf(bestColo) != pdFormats(fit, bestPD) {
		like = bestLike(fit, bestPD, seed, slots, st)
	}
	if like != nil && like.Score.Better(bestPD.Score) {
		f := pdFormats(fit, bestPD)
		s.NoPay = noPay(bestPD, like, f, top) + otherFormats(f, bestColo, pdWith(fit, bestColo))
	} else if bestColo.Score.Better(bestPD.Score) {
		f, tried := pdFormats(fit, bestPD), pdWith(fit, bestColo)
		if placeIn(top, bestPD) == 0 {
			s.NoPay = pdNotListed(f, bestPD, like, bestColo, top, tried)
		} else {
			s.NoPay = pdPaysButFormats(f, bestPD, like, bestColo, top, tried)
		}
	}
}

// placeIn is e's place in the list top (1 for #1), 0 when it is not
// listed.
func placeIn(top []*evaluated, e *evaluated) int {
	for i, t := range top {
		if t == e {
			return i + 1
		}
	}
	return 0
}

// named is colocated candidate c as a P/D line names it: its layout and,
// when listed, its place ("TP 8 · … × 2 replicas, #3,").
func named(top []*evaluated, c *evaluated) string {
	if i := placeIn(top, c); i > 0 {
		return fmt.Sprintf("%s, #%d,", c.Settings.Layout(), i)
	}
	return c.Settings.Layout()
}

// listedFigure is candidate e under name as a P/D line gives it: with its
// place and the list's per-GPU figure when top lists it ("TP 8 · … × 2
// replicas, #3, serving 325.7 output tokens/s per GPU,"), else marked as
// not listed, with no figure.
func listedFigure(top []*evaluated, e *evaluated, name string) string {
	if i := placeIn(top, e); i > 0 {
		return fmt.Sprintf("%s, #%d, serving %.1f output tokens/s per GPU", name, i, e.PerGPU)
	}
	return name + " (not in the list)"
}

// edge says how much more per GPU colocated c serves than P/D p when
// either is unlisted (their figures are then not given): "; colocated
// serves 3% more per GPU". Both listed, the figures say it.
func edge(top []*evaluated, p, c *evaluated) string {
	if placeIn(top, p) > 0 && placeIn(top, c) > 0 || p.PerGPU <= 0 {
		return ""
	}
	d := 100 * (c.PerGPU/p.PerGPU - 1)
	if d < 0 {
		return fmt.Sprintf("; colocated serves %.0f%% less per GPU", -d)
	}
	return fmt.Sprintf("; colocated serves %.0f%% more per GPU", d)
}

// formats are the weight format and KV-cache dtype a candidate runs, as
// resolved ("auto" is what the checkpoint ships or the release picks:
// DeepSeek-V3's "auto" weights are its FP8).
type formats struct{ weights, kv string }

func (f formats) String() string { return "weights " + f.weights + " · KV " + f.kv }

// formatsOf is the formats of colocated candidate e.
func formatsOf(e *evaluated) formats {
	eng := e.in.Resolved().Engine
	return formats{eng.WeightsDType.Value, eng.KVCacheDType.Value}
}

// pdFormats is what P/D candidate p runs: the formats of a colocated
// candidate with its settings' weights and KV-cache dtype (both pools keep
// them; the spec's own are among the colocated candidates), or its words
// when no colocated candidate has them.
func pdFormats(fit []*evaluated, p *evaluated) formats {
	for _, e := range fit {
		if e.pd == nil && e.Weights == p.Weights && e.KVCacheDType == p.KVCacheDType {
			return formatsOf(e)
		}
	}
	return formats{p.Weights, p.KVCacheDType}
}

// bestLike is the best colocated candidate with p's weights and KV-cache
// dtype over the same candidate space as the ranking's: the colocated
// group leaders with those formats are simulated in bound order, as the
// ranking simulates its groups (simulateGroups), until no unsimulated
// one's bound can beat the best of them simulated (the ranking pruned
// them by the best candidate overall, which may run other formats); nil
// when no colocated candidate runs them.
func bestLike(fit []*evaluated, p *evaluated, seed uint64, slots []sloSlot, st *Stats) *evaluated {
	f := pdFormats(fit, p)
	var done, queue []*evaluated
	for _, e := range groupLeaders(fit) {
		if e.pd == nil && formatsOf(e) == f && !e.Simulated {
			queue = append(queue, e)
		}
	}
	for _, e := range fit {
		if e.pd == nil && formatsOf(e) == f && e.Simulated {
			done = append(done, e)
		}
	}
	run := func(batch, _ []*evaluated) {
		for _, e := range batch {
			simulate(e, seed, slots)
			st.spent += e.work
		}
		done = append(done, batch...)
		st.Simulated += len(batch)
	}
	simulateGroups(queue, 1, &done, run, st)
	if ranked := rankActual(done); len(ranked) > 0 {
		return ranked[0]
	}
	return nil
}

// pdWith reports whether a P/D candidate that fits runs colocated
// candidate c's weights and KV-cache dtype settings.
func pdWith(fit []*evaluated, c *evaluated) bool {
	for _, e := range fit {
		if e.pd != nil && e.Fits && e.Settings.dtype() == c.Settings.dtype() {
			return true
		}
	}
	return false
}

// pdWithWords says what became of the P/D pools with the best colocated
// candidate's formats: ranked lower (tried), or no pair of them fits and
// is one vLLM pairs.
func pdWithWords(tried bool) string {
	if tried {
		return "the P/D pools with those formats rank lower"
	}
	return "no P/D pair with those formats fits and is one NIXL pairs"
}

// otherFormats adds, when the best colocated candidate c runs other
// formats than the best P/D candidate, c's figures and what became of the
// P/D pools with c's formats (tried: some fit).
func otherFormats(f formats, c *evaluated, tried bool) string {
	if formatsOf(c) == f {
		return ""
	}
	return fmt.Sprintf("; the best colocated overall, %s with %s, serves %.1f per GPU and meets %d of %d (%s)",
		c.Settings.Layout(), formatsOf(c), c.PerGPU, passed(c), len(c.SLO), pdWithWords(tried))
}

// pdPaysButFormats is the line when the best P/D candidate p, listed,
// beats (or matches) colocated at its own formats but the best colocated
// candidate, in other formats, beats it: p named by its place in top, with
// the list's figure.
func pdPaysButFormats(f formats, p, like, c *evaluated, top []*evaluated, tried bool) string {
	at := "no colocated candidate runs them"
	if like != nil {
		at = fmt.Sprintf("colocated %s with them serves %.1f per GPU and meets %d of %d", named(top, like), like.PerGPU, passed(like), len(like.SLO))
	}
	return fmt.Sprintf("P/D %s at its best formats (%s: the best P/D, #%d, %s, serves %.1f output tokens/s per GPU and meets %d of %d; %s), but colocated %s with %s serves %.1f per GPU and meets %d of %d (%s)",
		paysOrMatches(p, like), f, placeIn(top, p), p.Shape(), p.PerGPU, passed(p), len(p.SLO), at, named(top, c), formatsOf(c), c.PerGPU, passed(c), len(c.SLO), pdWithWords(tried))
}

// pdNotListed is pdPaysButFormats' line when the best P/D candidate p is
// not listed: what p does against colocated with its formats, like (also
// unlisted, or no better than p), is said without either's figures, and
// the best colocated candidate c is named as the list shows it.
func pdNotListed(f formats, p, like, c *evaluated, top []*evaluated, tried bool) string {
	did := "pays (no colocated candidate runs them)"
	if like != nil {
		did = paysOrMatches(p, like) + " with them"
		if did == "pays with them" {
			did = "pays against colocated with them"
		}
	}
	return fmt.Sprintf("P/D is not in the list: at its best formats (%s) the best P/D %s, but colocated %s with %s serves %.1f per GPU and meets %d of %d (%s)",
		f, did, named(top, c), formatsOf(c), c.PerGPU, passed(c), len(c.SLO), pdWithWords(tried))
}

// tieShare is the relative throughput difference under which two
// candidates meeting the same SLOs are called a match, not a win: the
// simulations' own seed-to-seed spread is about that large (seeds 1–12 of
// the P/D closed loop: −3.0…+3.7%, TestClosedLoopLittleSeeds), so a
// smaller edge is not evidence that P/D pays.
const tieShare = 0.02

// paysOrMatches says "pays" when the best P/D candidate p beats the
// colocated candidate of its formats, like, by more than tieShare or meets
// more SLOs, and "only matches colocated" otherwise.
func paysOrMatches(p, like *evaluated) string {
	if like != nil && passed(p) == passed(like) && p.PerGPU <= like.PerGPU*(1+tieShare) {
		return "only matches colocated"
	}
	return "pays"
}

// lowLoad is the prefill pool's utilisation below which plan calls the
// load low: the prefill pool idles most of the time, so the prefills it
// takes off the decoders were a small part of their steps.
const lowLoad = 0.5

// noPay is why the best P/D candidate p loses to the best colocated one c,
// in one line with the figures: the KV transfer alone takes at least the
// prefill (slow NICs); the whole hand-off does (short prompts); the
// prefill pool idles (low load: little interference to remove); else the
// pool that binds.
//
// A candidate's per-GPU figure is given only when top lists it, with its
// place (one candidate, one figure: the line gave the best P/D's 315.2
// per GPU, a figure no listed row shows; speed41's rule, extended here).
func noPay(p, c *evaluated, f formats, top []*evaluated) string {
	sc := p.pd.report.Scenarios[0]
	t := sc.TTFTParts
	sec := textfmt.Seconds
	versus := fmt.Sprintf("like with like, both with %s: colocated %s, meets %d of %d SLOs; the best P/D, %s, %d of %d%s", f, listedFigure(top, c, c.Settings.Layout()), passed(c), len(c.SLO),
		listedFigure(top, p, p.Shape()), passed(p), len(p.SLO), edge(top, p, c))
	handoff := t.RouterS + t.TransferS + t.FirstDecodeS
	switch {
	case t.PrefillS <= 0:
		// Its simulation measured no request (cut short): the parts below
		// are zeros, not a comparison (qa43: "a request's KV transfer
		// takes 0 s ... against 0 s of prefill", called slow NICs).
		return fmt.Sprintf("P/D does not pay here — the best P/D's simulation measured no request before its work ceiling, so its TTFT cannot be split into prefill, hand-off and decode (%s)", versus)
	case t.TransferS >= t.PrefillS || sc.Binding == pd.BindTransfer:
		return fmt.Sprintf("P/D does not pay — slow NICs: a request's KV transfer takes %s (%.1f MB at %.2f GB/s) against %s of prefill (%s)",
			sec(t.TransferS), sc.Transfer.WireBytes/1e6, sc.Transfer.LinkGBytesPerS, sec(t.PrefillS), versus)
	case t.DecodeAdmitS >= t.PrefillS && t.DecodeAdmitS > handoff && sc.DecodeUtilization >= pd.BindsAt:
		// A busy decode pool's admission is mostly the wait for a slot:
		// queueing, not the hand-off's cost (qa43: "the hand-off adds
		// 98 s"). Below BindsAt it is the step boundary and the read's
		// notice, which the short-prompts line counts.
		return fmt.Sprintf("P/D does not pay — the decode pool queues: after a %s prefill a request waits %s for a decode slot and step (decode pool %.0f%% busy, prefill %.0f%%) (%s)",
			sec(t.PrefillS), sec(t.DecodeAdmitS), 100*sc.DecodeUtilization, 100*sc.PrefillUtilization, versus)
	case handoff+t.DecodeAdmitS >= t.PrefillS:
		return fmt.Sprintf("P/D does not pay — short prompts: a %d-token prompt prefills in %s, and the hand-off adds %s (router %s + KV transfer %s + decode admission and first step %s) (%s)",
			sc.InputTokens, sec(t.PrefillS), sec(handoff+t.DecodeAdmitS), sec(t.RouterS), sec(t.TransferS), sec(t.DecodeAdmitS+t.FirstDecodeS), versus)
	case sc.PrefillUtilization < lowLoad:
		return fmt.Sprintf("P/D does not pay — low load: the prefill pool's %d GPUs are %.0f%% busy, so there is little prefill interference to take off the decoders, which keep %d of the %d GPUs (%s)",
			p.PD.PrefillGPUs, 100*sc.PrefillUtilization, p.PD.DecodeGPUs, p.GPUs, versus)
	}
	if lost := metOnlyBy(c, p); len(lost) > 0 && passed(p) < passed(c) && p.PerGPU > c.PerGPU {
		// No mechanism above, and it serves more per GPU: what it loses
		// is an SLO colocated meets
		// (qa42: the line blamed "no pool near saturation" beside a P/D
		// serving 72% more per GPU and meeting one SLO fewer).
		return fmt.Sprintf("P/D does not pay here — it serves more per GPU but does not meet %s, which colocated meets (%s)", strings.Join(lost, ", "), versus)
	}
	if lost := missedOnlyBy(c, p); len(lost) > 0 && p.Score.Missing > c.Score.Missing && p.PerGPU > c.PerGPU {
		// It loses on the ranking's second key (Score.Missing): say which
		// prediction falls short, not a binding that decides nothing.
		return fmt.Sprintf("P/D does not pay here — it serves more per GPU but its prediction of %s misses the target, which colocated's meets (%s)", strings.Join(lost, ", "), versus)
	}
	what := "the " + sc.Binding + " binds"
	switch sc.Binding {
	case pd.BindSessions:
		what = fmt.Sprintf("no pool near saturation (%.0f%% busy or more), the %d sessions bind", 100*pd.BindsAt, sc.Sessions)
	case pd.BindArrivals:
		what = fmt.Sprintf("no pool near saturation (%.0f%% busy or more), the arrivals set the rate", 100*pd.BindsAt)
	}
	return fmt.Sprintf("P/D does not pay — %s at %.2f requests/s (prefill %.0f%%, decode %.0f%% busy; %s)",
		what, sc.RequestsPerS, 100*sc.PrefillUtilization, 100*sc.DecodeUtilization, versus)
}

// metOnlyBy are the SLOs candidate a passes and b does not, by name.
func metOnlyBy(a, b *evaluated) []string {
	var out []string
	for _, v := range a.SLO {
		if v.Verdict != verdictPass {
			continue
		}
		for _, w := range b.SLO {
			if w.Name == v.Name && w.Verdict != verdictPass {
				out = append(out, v.Name)
			}
		}
	}
	return out
}

// missedOnlyBy names the SLOs whose point prediction b misses (not
// passing, on the wrong side of the target: Score.Missing) and a's meets.
func missedOnlyBy(a, b *evaluated) []string {
	var out []string
	for _, v := range a.SLO {
		if v.Verdict != verdictPass && v.Margin() < 0 {
			continue
		}
		for _, w := range b.SLO {
			if w.Name == v.Name && w.Verdict != verdictPass && w.Margin() < 0 {
				out = append(out, v.Name)
			}
		}
	}
	return out
}

func passed(c *evaluated) int {
	n := 0
	for _, v := range c.SLO {
		if v.Verdict == verdictPass {
			n++
		}
	}
	return n
}

// Resolve is candidate s on the spec's deployment d as `vlaunch check`
// resolves the spec Apply writes: a P/D candidate's pools through their
// RoleViews and resolve.AssembleDisaggregated, a colocated one through
// resolve.Assemble (a P/D spec's block removed).
func Resolve(d *resolve.Deployment, s Settings) (*resolve.Deployment, error) {
	c := s.toSpec(d.Spec)
	if s.PD == nil {
		return resolve.Assemble(c, partsOf(d))
	}
	var roles []*resolve.Deployment
	for _, role := range spec.Roles {
		r, err := resolve.Assemble(c.RoleView(role), partsOf(d))
		if err != nil {
			return nil, err
		}
		roles = append(roles, r)
	}
	return resolve.AssembleDisaggregated(c, roles)
}

// unsimulatedPDLead is the most promising P/D group leader of leaders
// when the bound pruned every P/D group (none could rank first), nil when
// one was simulated or none fits: the report's P/D line then has a
// simulated P/D candidate's figures to give, not a bound's, and
// simulateFrontRunners simulates it before the list is fixed.
func unsimulatedPDLead(leaders []*evaluated) *evaluated {
	var best *evaluated
	for _, e := range leaders {
		if e.pd == nil {
			continue
		}
		if e.Simulated {
			return nil
		}
		if best == nil || e.pd.promises(best.pd) {
			best = e
		}
	}
	return best
}

// relabelUnmet names the colocated candidate the unmet SLOs' hardware
// change was probed on when #1 is a P/D candidate (unmetSLOs words it #1).
func relabelUnmet(un []Unmet, top []*evaluated, first *evaluated) {
	label := "the best colocated candidate"
	for i, e := range top {
		if e == first {
			label = fmt.Sprintf("the best colocated candidate, #%d,", i+1)
		}
	}
	for i := range un {
		un[i].Change = strings.Replace(un[i].Change, "#1", label, 1)
	}
}
