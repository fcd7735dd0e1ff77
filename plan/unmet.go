package plan

import (
	"fmt"
	"math"
	"sort"

	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/resolve"
)

// unmetBudget is how many more candidates whose step-model bound allows
// an SLO are simulated before plan says none meets it.
const unmetBudget = 2

// unmetSLOs lists the SLOs no candidate meets. An SLO that no simulated
// candidate passes is tried on the unsimulated ones whose bound allows it
// (best bound margin first, up to unmetBudget); if none passes, the
// recommended candidate (#1) is moved along the one hardware knob plan
// models — the inter-node bandwidth — to the smallest grid value that meets
// it (the sensitivity's probes, already run, answer most of it).
func unmetSLOs(p *probe, first *evaluated, fit []*evaluated, opt Options, slots []sloSlot, st *Stats) []Unmet {
	var out []Unmet
	bw := knobs[0]
	for j, slot := range slots {
		if metBySimulated(fit, j) {
			continue
		}
		met, unsearched := metAfterSimulating(fit, j, opt, slots, st)
		if met {
			continue
		}
		u := Unmet{SLO: fmt.Sprintf("%s (target %s)", slot.name, quantity(slot.target, slot.unit)), Unsearched: unsearched, Verdict: verdictFail}
		best := bestFor(fit, j)
		if best != nil {
			u.Best = fmt.Sprintf("%s, predicted %s", best.Settings, quantity(best.SLO[j].Predicted, slot.unit))
			u.best, u.predicted = best, quantity(best.SLO[j].Predicted, slot.unit)
			u.Verdict = best.SLO[j].Verdict
		}
		change, met := hardwareChange(p, first, bw, j)
		if u.Verdict == verdictUncertain {
			change = unmetChange(best.SLO[j], change, met)
		}
		u.Change = change
		out = append(out, u)
	}
	return out
}

func metBySimulated(fit []*evaluated, j int) bool {
	for _, e := range fit {
		if e.Simulated && j < len(e.SLO) && e.SLO[j].Verdict == verdictPass {
			return true
		}
	}
	return false
}

// metAfterSimulating simulates up to unmetBudget unsimulated candidates
// whose bound allows SLO j, best bound margin first, while the plan's
// simulation budget lasts; unsearched says the budget stopped it first.
func metAfterSimulating(fit []*evaluated, j int, opt Options, slots []sloSlot, st *Stats) (met, unsearched bool) {
	var open []*evaluated
	for _, e := range fit {
		if !e.Simulated && j < len(e.boundSLO) && e.boundSLO[j].Verdict == verdictPass {
			open = append(open, e)
		}
	}
	sort.SliceStable(open, func(a, b int) bool { return open[a].boundSLO[j].Margin() > open[b].boundSLO[j].Margin() })
	for i := 0; i < len(open) && i < unmetBudget; i++ {
		if !st.budgetLeft() {
			return false, true
		}
		simulate(open[i], opt.Seed, slots)
		st.Simulated++
		st.spent += open[i].work
		if open[i].SLO[j].Verdict == verdictPass {
			return true, false
		}
	}
	return false, false
}

// bestFor is the simulated candidate with the best margin on SLO j.
func bestFor(fit []*evaluated, j int) *evaluated {
	var best *evaluated
	for _, e := range fit {
		if e.Simulated && j < len(e.SLO) && (best == nil || e.SLO[j].Margin() > best.SLO[j].Margin()) {
			best = e
		}
	}
	return best
}

// hardwareChange moves the inter-node bandwidth up the knob's grid until
// SLO j passes on candidate e; met says a grid value passes.
func hardwareChange(p *probe, e *evaluated, k knob, j int) (change string, met bool) {
	if e == nil {
		return "no candidate fits in memory", false
	}
	binding := ""
	if j < len(e.SLO) {
		binding = e.SLO[j].Binding
	}
	dep := e.in.Resolved()
	now := k.now(dep)
	if now <= 0 {
		return fmt.Sprintf("%s, bound by %s: it takes faster GPUs or more of them", oneNodeWords(dep.Layout), binding), false
	}
	var last *probeResult
	top := now
	for _, v := range k.grid(now, dep) {
		if v <= now {
			continue
		}
		r := p.at(e, k, v)
		if p.verdict(r, j) == verdictPass {
			return fmt.Sprintf("#1 meets it at %s (now %s): predicted %s", k.describe(v), k.describe(now), quantity(r.e.SLO[j].Predicted, r.e.SLO[j].Unit)), true
		}
		last, top = r, v
	}
	if last != nil && last.fits && j < len(last.e.SLO) {
		at := last.e.SLO[j]
		how := "step-model bound"
		if last.simulated {
			how = "simulated"
		}
		return fmt.Sprintf("#1 is bound by %s; even at %s it predicts %s (%s, bound by %s): it takes faster GPUs, more of them, or another workload",
			binding, k.describe(top), quantity(at.Predicted, at.Unit), how, at.Binding), false
	}
	return fmt.Sprintf("#1 is bound by %s; no inter-node bandwidth up to %s meets it", binding, k.describe(top)), false
}

// unmetChange words the advice for an SLO whose closest candidate is
// uncertain. The advice for a failed SLO ("it takes faster GPUs") would call
// it failed: uncertainChange says how far the closest candidate's
// prediction must move for its band to clear the target. When a faster
// network makes #1 pass (met), that change is the advice, but the line
// still says first that the closest prediction is uncertain, not failed,
// and why — a prediction under a latency target with no word of its band
// read as a pass (QA #37: the TTFT p95/p99 lines).
func unmetChange(s SLOResult, change string, met bool) string {
	if !met {
		return uncertainChange(s)
	}
	return uncertainNote(s) + "; " + change
}

// uncertainNote says an SLO's closest prediction is uncertain: which side
// of the target it lies on, and the band that straddles the target.
func uncertainNote(s SLOResult) string {
	head := uncertainHead(s)
	if s.Band == nil {
		return head + ", within the model's accuracy band"
	}
	return fmt.Sprintf("%s, but the model's accuracy band (%s) straddles it", head, bandText(*s.Band, s.Unit))
}

// uncertainHead is the start of every uncertain SLO's line.
func uncertainHead(s SLOResult) string {
	side := "misses"
	if s.Margin() >= 0 {
		side = "meets"
	}
	return fmt.Sprintf("uncertain, not failed: the closest candidate's prediction %s the target", side)
}

// bandText is a band as check prints it: an open side (no bound from the
// evidence: zero or infinite here) is written "≥ low", "≤ high" or
// "unbounded".
func bandText(b Band, unit string) string {
	lowOpen := b.Low <= 0 || math.IsInf(b.Low, 0) || math.IsNaN(b.Low)
	highOpen := b.High <= 0 || math.IsInf(b.High, 0) || math.IsNaN(b.High)
	switch {
	case lowOpen && highOpen:
		return "unbounded"
	case lowOpen:
		return "≤ " + quantity(b.High, unit)
	case highOpen:
		return "≥ " + quantity(b.Low, unit)
	}
	return textfmt.Range(b.Low, b.High, unit)
}

// uncertainChange words an SLO whose closest candidate is uncertain: its
// prediction band straddles the target, so it is neither met nor failed.
// A pass needs a prediction whose band's pessimistic edge reaches the
// target (the band scales with the prediction: estimate/slo judge), or a
// measurement; an open edge (too few or disagreeing sources) leaves only
// the measurement.
func uncertainChange(s SLOResult) string {
	edge := 0.0
	if s.Band != nil {
		edge = s.Band.Low
		if !s.HigherIsBetter {
			edge = s.Band.High
		}
	}
	head := uncertainHead(s)
	if s.Band == nil || edge <= 0 || math.IsInf(edge, 0) || s.Predicted <= 0 {
		return head + ", and the model's accuracy band has no bound on the side that decides it here: only a measurement of that layout settles it"
	}
	need := s.Target * s.Predicted / edge
	better := need / s.Predicted
	if !s.HigherIsBetter {
		better = 1 / better
	}
	return fmt.Sprintf("%s, but the model's accuracy band (%s) straddles it; a pass needs a prediction of %s (the band's edge at the target), %.2f× better: faster GPUs or more of them — or a measurement of that layout, which settles it",
		head, bandText(*s.Band, s.Unit), quantity(need, s.Unit), better)
}

// oneNodeWords says why the inter-node bandwidth does not move #1 (the
// knob's now is 0: no replica spans nodes, resolve.Layout.MultiNode).
// Independent replicas on different nodes are not "one node": it read
// "#1 runs on one node" of TP 4 × 2 replicas on both of two nodes (qa38).
func oneNodeWords(l resolve.Layout) string {
	if n := l.ReplicaCount(); n > 1 && l.TotalGPUs() > l.GPUsPerNode {
		return fmt.Sprintf("#1's %d replicas each run within one node (nothing crosses the NICs)", n)
	}
	return "#1 runs on one node"
}

// nameUnmetBest words each unmet SLO's closest candidate against the top
// list: "#N" when it is listed (or one of a listed candidate's alike
// settings), else its settings in full (the release's defaults named) and
// why it is not listed — a tuning of a listed candidate's group, which the
// list shows once (its best), or a group ranked below the list. The
// closest candidate of qa39's Gemma-4 spec was another tuning of #1's
// group, named like #1 without its scheduler limit: it read as a candidate
// missing from the list.
func nameUnmetBest(un []Unmet, top []*evaluated) {
	for i := range un {
		u := &un[i]
		if u.best == nil {
			continue
		}
		var words string
		words, u.BestRank = closestWords(u.best, top)
		u.Best = fmt.Sprintf("%s, predicted %s", words, u.predicted)
	}
}

// closestWords names candidate e against the top list (rank: its place
// when listed).
func closestWords(e *evaluated, top []*evaluated) (string, int) {
	for i, t := range top {
		if t == e || containsName(t.Alike, e.Settings.String()) {
			return fmt.Sprintf("#%d (%s)", i+1, e.Settings), i + 1
		}
	}
	for i, t := range top {
		if t.group() == e.group() {
			return fmt.Sprintf("%s — not listed: another tuning of #%d's layout and formats (the list shows each one's best)", e.Settings.Full(), i+1), 0
		}
	}
	return fmt.Sprintf("%s — not listed: its layout and formats rank below the list's", e.Settings.Full()), 0
}
