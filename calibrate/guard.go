package calibrate

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/fitter"
)

// A cluster's fit is guarded three ways around package fitter's minimax
// search (direction.go says why):
//
//   - the sign rule: a constant may move only the way every fitted run's
//     errors ask for (askedDirection), within the half of its range on
//     that side (its other bound set to its start), and only when a
//     fitted figure exercises its mechanism;
//   - no fitted run may end with a larger error than it started with (a
//     run's error is its worst |log error| over its fitted figures);
//   - leave one run out: with two runs or more, the chosen constants are
//     fitted again to all runs but one, and the run left out must not be
//     predicted worse than with the start constants.
//
// A fit that fails a check is not accepted: the constant whose move
// contributes most to the worsened run's worst figure is left at its
// start, and the fit runs again without it, until a fit passes or no
// constant is left.

// guard is one fit's setting: the prepared replays, the targets as the
// fitter takes them, the options.
type guard struct {
	c       prepared
	params  []fitter.Param
	targets []fitter.Target
	opts    fitter.Options
	// sib are the published runs of this deployment the fit was not
	// given (siblings), sibBefore their errors with the start constants.
	sib       siblings
	sibBefore map[string]float64
	// evals counts every prediction the guard asked for, the fitter's
	// included.
	evals int
}

// runOf names each target's run.
func (g *guard) runOf(j int) string {
	return g.c.rep.Results[g.c.rep.used[g.c.targets[j].result]].Name
}

// model predicts the targets kept (nil: all) with constants x.
func (g *guard) model(keep []bool) fitter.Model {
	targets := g.c.targets
	if keep != nil {
		targets = nil
		for j, t := range g.c.targets {
			if keep[j] {
				targets = append(targets, t)
			}
		}
	}
	m := predictor(g.c.start, g.params, g.c.replays, targets)
	return func(x []float64) []float64 { g.evals++; return m(x) }
}

// guardedFit is the fit with its guards: the outcome over every param, and
// per constant why it moved or did not (overriding the fitter's reasons
// where the guard decided).
func (g *guard) guardedFit() (fitter.Outcome, map[string]string, error) {
	n := len(g.params)
	x0, lo, hi := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, p := range g.params {
		x0[i], lo[i], hi[i] = p.Start, p.Lower, p.Upper
	}
	full := g.model(nil)
	base := full(x0)
	derivs := logDerivs(x0, lo, hi, full)
	why := map[string]string{}
	dirs := make([]int, n)
	for i, p := range g.params {
		v := askedDirection(phaseOf(p.Name), g.pulls(i, base, derivs))
		switch {
		case v.dir > 0 && p.Start >= p.Upper/1.005:
			v = verdict{why: v.why + fmt.Sprintf(", but it starts at its upper bound %s", num(p.Upper))}
		case v.dir < 0 && p.Start <= p.Lower*1.005:
			v = verdict{why: v.why + fmt.Sprintf(", but it starts at its lower bound %s", num(p.Lower))}
		}
		dirs[i], why[p.Name] = v.dir, v.why
	}
	for {
		allowed := allowedOf(dirs)
		if len(allowed) == 0 {
			return g.unmoved(x0, base), why, nil
		}
		out, err := g.fitOn(allowed, dirs, nil)
		if err != nil {
			return out, why, err
		}
		moved := false
		for i := range out.X {
			moved = moved || out.X[i] != x0[i]
		}
		if !moved {
			// Nothing moved: the figures out of the allowed moves' reach
			// are shown, each with why, and the worst error is the
			// fitter's, over the figures it fitted — the one the
			// constants' notes quote (qa44c F8: every figure was
			// reported as fitted, so the report's worst, 33.4%, was not
			// the 7.5% the notes said no constant could lower).
			return g.finish(out, x0, why), why, nil
		}
		if r, before, after := g.worsenedRun(base, out.After, nil); r != "" {
			i := g.blame(r, out.X, x0, out.After, derivs)
			if i < 0 {
				return g.unmoved(x0, base), why, nil
			}
			why[g.params[i].Name] += fmt.Sprintf("; the fit that moved it to %s worsened %s's error (%.1f%% → %.1f%%), so it is left at its start", constText(g.params[i].Name, out.X[i]), r, pctOf(before), pctOf(after))
			dirs[i] = 0
			continue
		}
		if r, before, after := g.worsenedSibling(out.X); r != "" {
			i := g.undoBlame(r, out.X, x0)
			why[g.params[i].Name] += fmt.Sprintf("; the fit that moved it to %s worsened %s, a figure of a published run of this deployment the fit was not given (%.1f%% → %.1f%% off), so it is left at its start", constText(g.params[i].Name, out.X[i]), r, pctOf(before), pctOf(after))
			dirs[i] = 0
			continue
		}
		if r, i, before, after, x := g.leaveOneOut(allowed, dirs, base, x0, derivs); r != "" {
			why[g.params[i].Name] += fmt.Sprintf("; fitted to the other runs it moved to %s and worsened %s, left out (%.1f%% → %.1f%%), so it is left at its start", constText(g.params[i].Name, x), r, pctOf(before), pctOf(after))
			dirs[i] = 0
			continue
		}
		return g.finish(out, x0, why), why, nil
	}
}

// effOf is the constants x as an efficiency set.
func (g *guard) effOf(x []float64) perf.Efficiency {
	eff := g.c.start
	for i, p := range g.params {
		*eff.Field(p.Name) = x[i]
	}
	return eff
}

// worsenedSibling names the sibling figure the constants x predict worse
// than the start constants ("" when none).
func (g *guard) worsenedSibling(x []float64) (row string, before, after float64) {
	if g.sib.empty() {
		return "", 0, 0
	}
	if g.sibBefore == nil {
		g.sibBefore = g.sib.errors(g.c.start)
	}
	return worsenedSibling(g.sibBefore, g.sib.errors(g.effOf(x)))
}

// undoBlame is the moved constant whose move, undone alone, lowers the
// sibling figure's error most.
func (g *guard) undoBlame(row string, x, x0 []float64) int {
	best, bestE := -1, math.Inf(1)
	for i := range x {
		if x[i] == x0[i] {
			continue
		}
		y := append([]float64(nil), x...)
		y[i] = x0[i]
		if e := g.sib.errors(g.effOf(y))[row]; best < 0 || e < bestE {
			best, bestE = i, e
		}
	}
	return best
}

// pulls are the fitted figures' pulls on constant i.
func (g *guard) pulls(i int, base []float64, derivs [][]float64) []pull {
	if derivs[i] == nil {
		return nil
	}
	var out []pull
	for j, t := range g.c.targets {
		e := math.Log(base[j] / t.measured)
		if math.IsNaN(e) || math.IsInf(e, 0) {
			continue
		}
		out = append(out, pull{run: g.runOf(j), metric: t.metric, err: e, deriv: derivs[i][j]})
	}
	return out
}

// signBoxReasons says of each exclusion that the reach it reports is the
// allowed moves'.
func signBoxReasons(excl []fitter.Exclusion) []fitter.Exclusion {
	out := make([]fitter.Exclusion, len(excl))
	for k, e := range excl {
		e.Reason = "with the constants the sign rule lets move, each only on its side of its start: " + e.Reason
		out[k] = e
	}
	return out
}

// hasRefusal reports whether the fitter refused constant name.
func hasRefusal(rs []fitter.Refusal, name string) bool {
	for _, r := range rs {
		if r.Name == name {
			return true
		}
	}
	return false
}

// allowedOf lists the constants the sign rule lets move.
func allowedOf(dirs []int) []int {
	var out []int
	for i, d := range dirs {
		if d != 0 {
			out = append(out, i)
		}
	}
	return out
}

// fitOn fits the allowed constants, each on the side of its start its
// direction allows, to the targets kept (nil: all), and returns the
// outcome over every param (the others at their start).
func (g *guard) fitOn(allowed, dirs []int, keep []bool) (fitter.Outcome, error) {
	sub := make([]fitter.Param, len(allowed))
	for k, i := range allowed {
		p := g.params[i]
		if dirs[i] > 0 {
			p.Lower = p.Start
		} else {
			p.Upper = p.Start
		}
		sub[k] = p
	}
	m := g.model(keep)
	expand := func(y []float64) []float64 {
		x := make([]float64, len(g.params))
		for i, p := range g.params {
			x[i] = p.Start
		}
		for k, i := range allowed {
			x[i] = y[k]
		}
		return x
	}
	targets := g.targets
	if keep != nil {
		targets = nil
		for j, t := range g.targets {
			if keep[j] {
				targets = append(targets, t)
			}
		}
	}
	so, err := fitter.Fit(sub, targets, func(y []float64) []float64 { return m(expand(y)) }, g.opts)
	if err != nil {
		return fitter.Outcome{}, err
	}
	out := fitter.Outcome{X: expand(so.X), Fitted: make([]bool, len(g.params)), Before: so.Before, After: so.After,
		WorstBefore: so.WorstBefore, WorstAfter: so.WorstAfter, Excluded: so.Excluded, Refused: so.Refused, Unchanged: so.Unchanged}
	for k, i := range allowed {
		out.Fitted[i] = so.Fitted[k]
	}
	for _, name := range so.AtBound {
		// Only the range's own bound on the side it moved counts: the
		// other is the sign rule's, at its start.
		for _, i := range allowed {
			p := g.params[i]
			if p.Name == name && (dirs[i] > 0 && out.X[i] >= p.Upper/1.005 || dirs[i] < 0 && out.X[i] <= p.Lower*1.005) {
				out.AtBound = append(out.AtBound, name)
			}
		}
	}
	g.withinTolerance(&out, keep)
	return out, nil
}

// withinTolerance drops from the fitter's exclusions (by index into the
// targets kept; nil: all) the targets within the fit's tolerance before
// and after: the sign rule's half ranges leave more measurements out of
// the constants' reach (a throughput 0.07% above the most the allowed
// moves predict), but a target within the tolerance costs the fitter's
// criterion nothing whether it is excluded or not, so it was fitted as
// much as any. The worst errors are taken again over the targets kept.
func (g *guard) withinTolerance(out *fitter.Outcome, keep []bool) {
	var idx []int // the kept targets' indexes into g.c.targets
	for j := range g.c.targets {
		if keep == nil || keep[j] {
			idx = append(idx, j)
		}
	}
	var excl []fitter.Exclusion
	for _, e := range out.Excluded {
		m := g.c.targets[idx[e.Index]].measured
		if logErr(out.Before[e.Index], m) <= fitTolerance && logErr(out.After[e.Index], m) <= fitTolerance {
			continue
		}
		excl = append(excl, e)
	}
	out.Excluded = excl
	out.WorstBefore, out.WorstAfter = 0, 0
	for k, j := range idx {
		if !excludedIndex(excl, k) {
			m := g.c.targets[j].measured
			out.WorstBefore, out.WorstAfter = max(out.WorstBefore, logErr(out.Before[k], m)), max(out.WorstAfter, logErr(out.After[k], m))
		}
	}
}

// excludedIndex reports whether target k is among the exclusions.
func excludedIndex(excl []fitter.Exclusion, k int) bool {
	for _, e := range excl {
		if e.Index == k {
			return true
		}
	}
	return false
}

// unmoved is the outcome of a fit that moves nothing.
func (g *guard) unmoved(x0, base []float64) fitter.Outcome {
	out := fitter.Outcome{X: x0, Fitted: make([]bool, len(x0)), Before: base, After: base}
	for j, t := range g.c.targets {
		out.WorstBefore = math.Max(out.WorstBefore, logErr(base[j], t.measured))
	}
	out.WorstAfter = out.WorstBefore
	out.Evals = g.evals
	return out
}

// finish completes an accepted outcome: the evaluations, and why each
// constant the fit was allowed to move did or did not.
func (g *guard) finish(out fitter.Outcome, x0 []float64, why map[string]string) fitter.Outcome {
	if len(out.Excluded) == len(g.c.targets) {
		// No figure is within reach of the constants the sign rule lets
		// move: nothing was fitted.
		for i, p := range g.params {
			if out.Fitted[i] || len(out.Refused) > 0 && hasRefusal(out.Refused, p.Name) {
				why[p.Name] += "; but moved only that way, with the other constants allowed to move, it brings no fitted figure within reach of its measurement"
			}
		}
		still := g.unmoved(x0, out.Before)
		// Free to move, but fitted to no figure: not fitted (qa44c F2:
		// they were reported "unchanged", fitted, and written).
		still.Fitted = make([]bool, len(out.Fitted))
		still.Excluded, still.WorstBefore, still.WorstAfter = signBoxReasons(out.Excluded), 0, 0
		return still
	}
	out.Excluded = signBoxReasons(out.Excluded)
	out.Evals = g.evals
	fitterWhy := map[string]string{}
	for _, r := range out.Refused {
		fitterWhy[r.Name] = r.Reason
	}
	for _, r := range out.Unchanged {
		fitterWhy[r.Name] = r.Reason
	}
	refused := out.Refused[:0:0]
	for i, p := range g.params {
		w := why[p.Name]
		switch {
		case out.Fitted[i] && out.X[i] != x0[i]:
			why[p.Name] = w + fmt.Sprintf("; moved ×%.2f, and no fitted run's error, nor a run's left out of the fit, grew", out.X[i]/x0[i])
		case out.Fitted[i]:
			why[p.Name] = w + "; but, moved only that way, beside the other fitted constants no value fits better"
		case fitterWhy[p.Name] != "":
			why[p.Name] = w + "; then on that side of its start: " + fitterWhy[p.Name]
		}
		if !out.Fitted[i] {
			refused = append(refused, fitter.Refusal{Name: p.Name, Reason: why[p.Name]})
		}
	}
	out.Refused = refused
	out.Unchanged = nil
	return out
}

// runErrors is each run's error: its worst |log error| over the targets
// kept (nil: all) that the fit did not exclude.
func (g *guard) runErrors(pred []float64, keep []bool) map[string]float64 {
	out := map[string]float64{}
	for j, t := range g.c.targets {
		if keep != nil && !keep[j] {
			continue
		}
		r := g.runOf(j)
		out[r] = math.Max(out[r], logErr(pred[j], t.measured))
	}
	return out
}

// worsenedRun names the run (of the targets kept; nil: all) whose error
// grew most from before to after beyond the larger of its error before and
// the fit's tolerance (fitTolerance: errors within it are ones the
// constants cannot be shown to cause, and the fit trades within it), ""
// when none did.
func (g *guard) worsenedRun(before, after []float64, keep []bool) (run string, b, a float64) {
	eb, ea := g.runErrors(before, keep), g.runErrors(after, keep)
	growth := 0.0
	for _, r := range g.runNames() {
		if _, ok := eb[r]; !ok {
			continue
		}
		if d := ea[r] - max(eb[r], fitTolerance); d > worseTolerance && d > growth {
			run, b, a, growth = r, eb[r], ea[r], d
		}
	}
	return run, b, a
}

// runNames are the runs in the order of their targets.
func (g *guard) runNames() []string {
	var out []string
	seen := map[string]bool{}
	for j := range g.c.targets {
		if r := g.runOf(j); !seen[r] {
			out, seen[r] = append(out, r), true
		}
	}
	return out
}

// blame is the moved constant whose move contributes most to run r's
// worst figure's error at x (first order: the figure's error's sign × its
// derivative × the constant's log move).
func (g *guard) blame(r string, x, x0, pred []float64, derivs [][]float64) int {
	jw, ew := -1, 0.0
	for j, t := range g.c.targets {
		if g.runOf(j) != r {
			continue
		}
		if e := math.Log(pred[j] / t.measured); jw < 0 || math.Abs(e) > math.Abs(ew) {
			jw, ew = j, e
		}
	}
	best, bestC := -1, math.Inf(-1)
	for i := range x {
		if x[i] == x0[i] || derivs[i] == nil {
			continue
		}
		c := math.Copysign(1, ew) * derivs[i][jw] * math.Log(x[i]/x0[i])
		if c > bestC {
			best, bestC = i, c
		}
	}
	return best
}

// leaveOneOut fits the allowed constants to all runs but one, for each
// run, and returns the first run left out whose error the fit made worse
// than the start constants' (with the constant blamed, the errors and the
// constant's value there); "" when no run is. One run alone has no other
// to leave out.
func (g *guard) leaveOneOut(allowed, dirs []int, base, x0 []float64, derivs [][]float64) (run string, blamed int, before, after, x float64) {
	runs := g.runNames()
	if len(runs) < 2 {
		return "", -1, 0, 0, 0
	}
	for _, r := range runs {
		keep := make([]bool, len(g.c.targets))
		only := make([]bool, len(g.c.targets))
		for j := range g.c.targets {
			keep[j], only[j] = g.runOf(j) != r, g.runOf(j) == r
		}
		out, err := g.fitOn(allowed, dirs, keep)
		if err != nil {
			continue // the other runs' figures alone cannot be fitted: nothing to hold out
		}
		pred := g.model(nil)(out.X)
		if w, b, a := g.worsenedRun(base, pred, only); w != "" {
			i := g.blame(r, out.X, x0, pred, derivs)
			if i >= 0 {
				return r, i, b, a, out.X[i]
			}
		}
	}
	return "", -1, 0, 0, 0
}
