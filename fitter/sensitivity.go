package fitter

import (
	"fmt"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"math"
	"sort"
	"strings"
)

// sensitivity is what moving one constant alone to each bound does to the
// predictions.
type sensitivity struct {
	atLower, atUpper []float64
	// effect is the largest |log change| of any prediction.
	effect float64
	// target is the index of the prediction that moved most.
	target int
	// alone is what moving the constant alone within its range can do to
	// the fit's criterion (scanAlone); zero when not scanned.
	alone aloneScan
}

// aloneScan is the best the fit's criterion gets with one constant moved
// alone to points across its range (the others at their start values).
type aloneScan struct {
	// gain is the criterion at the start minus its best over the scan
	// (0 when no point beats the start).
	gain float64
	// worstAt and worstBest are the worst |log error| over the fitted
	// values at the start and at the scan's best point.
	worstAt, worstBest float64
	// best is the constant's value there (its start when no point is better).
	best float64
	// scanned: the scan ran (not for Options.Typical, nor for a constant
	// below the sensitivity threshold).
	scanned bool
}

// aloneFractions are the points of the normalised log range scanAlone
// tries beside the bounds (which sensitivities already predicted): a
// minimax criterion of predictions monotone in the constant has a single
// valley, which five points place to within a fifth of the range.
var aloneFractions = []float64{0.2, 0.4, 0.6, 0.8}

// aloneStep is aloneFractions' spacing; aloneRefine golden-section steps
// (one prediction each) shrink the bracket of two steps around the best
// point to 0.4 × 0.618^12 ≈ 0.13% of the range.
const (
	aloneStep   = 0.2
	aloneRefine = 12
	goldenRatio = 0.6180339887498949
)

// scanAlone fills each constant's aloneScan from its predictions at the
// bounds and at aloneFractions of its log range, for constants whose
// effect reaches threshold (the others cannot be fitted anyway).
func scanAlone(params []Param, sens []sensitivity, base []float64, threshold float64, crit, worstOf func([]float64) float64, c *counter) {
	at := crit(base)
	for i, p := range params {
		if sens[i].effect < threshold {
			continue
		}
		s := aloneScan{worstAt: worstOf(base), worstBest: worstOf(base), best: p.Start, scanned: true}
		try := func(v float64, pred []float64) {
			if g := at - crit(pred); g > s.gain {
				s.gain, s.worstBest, s.best = g, worstOf(pred), v
			}
		}
		try(p.Lower, sens[i].atLower)
		try(p.Upper, sens[i].atUpper)
		at1 := func(f float64) float64 {
			x := starts(params)
			x[i] = p.Lower * math.Exp(f*math.Log(p.Upper/p.Lower))
			pred := c.eval(x)
			try(x[i], pred)
			return crit(pred)
		}
		bestF, bestC := 0.0, math.Inf(1)
		for _, f := range aloneFractions {
			if v := at1(f); v < bestC {
				bestF, bestC = f, v
			}
		}
		// The valley lies within a step of the best point: golden
		// section there places it (aloneRefine).
		a, b := max(0, bestF-aloneStep), min(1, bestF+aloneStep)
		m1, m2 := b-goldenRatio*(b-a), a+goldenRatio*(b-a)
		c1, c2 := at1(m1), at1(m2)
		for range aloneRefine {
			if c1 <= c2 {
				b, m2, c2 = m2, m1, c1
				m1 = b - goldenRatio*(b-a)
				c1 = at1(m1)
			} else {
				a, m1, c1 = m1, m2, c2
				m2 = a + goldenRatio*(b-a)
				c2 = at1(m2)
			}
		}
		sens[i].alone = s
	}
}

// sensitivities moves each constant alone to its bounds (the others at
// their start values): a constant that moves no prediction across its whole
// documented range cannot be learnt from these targets.
func sensitivities(params []Param, base []float64, c *counter) []sensitivity {
	out := make([]sensitivity, len(params))
	for i, p := range params {
		x := starts(params)
		x[i] = p.Lower
		lo := c.eval(x)
		x[i] = p.Upper
		hi := c.eval(x)
		s := sensitivity{atLower: lo, atUpper: hi}
		for j := range base {
			for _, v := range []float64{lo[j], hi[j]} {
				if d := logChange(v, base[j]); d > s.effect {
					s.effect, s.target = d, j
				}
			}
		}
		out[i] = s
	}
	return out
}

// logChange is |log(a/b)|, +Inf when either is unusable.
func logChange(a, b float64) float64 {
	if !(a > 0) || !(b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	return math.Abs(math.Log(a / b))
}

// chooseParams picks the constants the targets can tell apart, taking them
// in order of what each can do for the fit alone: with byGain, the most
// the criterion falls when the constant alone moves within its range
// (scanAlone), the effect over its whole range breaking ties; otherwise
// (the global fit, Options.Typical, whose constants were fitted so) the
// effect alone — the one that can move the predictions most first; the
// order given breaks ties. The effect counts every prediction, those not
// fitted and those already right included: on a cluster's one benchmark it
// chose expert_gemm, which moved the unreachable throughput most but could
// not lower the worst error (TPOT +132%), over expert_hbm, which could
// (fix40d).
//
//   - a constant whose effect changes no prediction by the threshold is
//     refused: the results do not depend on it;
//   - a constant whose local effect (the Jacobian column at the start,
//     scaled to its whole log range) is, beyond the threshold, a
//     combination of the effects of constants already chosen is refused:
//     the results cannot tell it from them. A fixed cost per step and a
//     fixed cost per collective look the same when every step runs the
//     same collectives; fitting both would let the fit trade one for the
//     other at random. So is one whose effect those constants already
//     have but for less than identifiableShare of it: the results see
//     only that small remainder, and a minimax fit moves such a constant
//     far along it to shave the worst value, at the cost of every result
//     it was not given (share: identifiableShare for a cluster's few
//     results, 0 for the global fit, Options.Typical).
//
// At most maxFitted are fitted: as many constants as values would match
// any values exactly, which tests nothing.
func chooseParams(params []Param, sens []sensitivity, jac [][]float64, threshold, share float64, maxFitted int, byGain bool) ([]bool, []Refusal) {
	order := make([]int, len(params))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		sa, sb := sens[order[a]], sens[order[b]]
		// Gains closer than the threshold (1%: under it a change counts
		// as none) are equal: the larger effect goes first.
		if byGain && math.Abs(sa.alone.gain-sb.alone.gain) >= threshold {
			return sa.alone.gain > sb.alone.gain
		}
		return sa.effect > sb.effect
	})
	fitted := make([]bool, len(params))
	var basis [][]float64 // orthonormal, spanning the chosen columns
	var chosen []string
	var chosenIdx []int
	reasons := map[int]string{}
	for _, i := range order {
		p := params[i]
		if sens[i].effect < threshold {
			reasons[i] = fmt.Sprintf("moving it across its whole range [%s, %s] changes no prediction by %.0f%% or more (at most %s): these results do not depend on it",
				num(p.Lower), num(p.Upper), 100*threshold, pct(sens[i].effect))
			continue
		}
		if len(chosen) >= maxFitted {
			reasons[i] = capReason(params, sens, i, chosenIdx, maxFitted, byGain)
			continue
		}
		rest := residual(jac[i], basis)
		if len(basis) > 0 && (maxAbs(rest) < threshold || maxAbs(rest) < share*maxAbs(jac[i])) {
			reasons[i] = fmt.Sprintf("it changes predictions by up to %s across its range [%s, %s], but in the way %s already can (all but %s): these results cannot tell it apart",
				pct(sens[i].effect), num(p.Lower), num(p.Upper), strings.Join(chosen, " and "), pct(maxAbs(rest)))
			continue
		}
		fitted[i] = true
		chosen = append(chosen, p.Name)
		chosenIdx = append(chosenIdx, i)
		if n := maxAbs(rest); n > 0 {
			basis = append(basis, normalise(rest))
		}
	}
	var refused []Refusal
	for i, p := range params {
		if !fitted[i] {
			refused = append(refused, Refusal{Name: p.Name, Reason: reasons[i]})
		}
	}
	return fitted, refused
}

// capReason says why constant i was left out once maxFitted were chosen:
// by gain, what the chosen ones and it can each do alone to the worst
// error; otherwise that the chosen ones move the predictions more.
func capReason(params []Param, sens []sensitivity, i int, chosen []int, maxFitted int, byGain bool) string {
	names := make([]string, len(chosen))
	for k, j := range chosen {
		names[k] = params[j].Name
	}
	head := fmt.Sprintf("the fitted values can test at most %d constant%s (a value must be left over to test a fit)", maxFitted, textfmt.PluralS(maxFitted))
	tail := ": fitting it too would match any values, whatever it is"
	if !byGain {
		return head + ", and " + strings.Join(names, " and ") + " can move the predictions more" + tail
	}
	var did []string
	for _, j := range chosen {
		did = append(did, fmt.Sprintf("%s %s", params[j].Name, aloneText(sens[j].alone)))
	}
	return head + ", and alone within its range " + strings.Join(did, ", ") + ", this one " + aloneText(sens[i].alone) + tail
}

// aloneText is what a constant moved alone does to the worst error.
func aloneText(a aloneScan) string {
	if a.gain <= 0 {
		return fmt.Sprintf("cannot lower the worst error (%s)", pct(a.worstAt))
	}
	return fmt.Sprintf("takes the worst error from %s to %s", pct(a.worstAt), pct(a.worstBest))
}

// identifiableShare is the part of a constant's local effect (the largest
// change of a log prediction, Jacobian ∞-norm) that must remain once the
// effects of the constants already chosen are projected out for it to be
// fitted. Fitted to GPUStack's three DeepSeek-R1 runs on 8 H200
// (calibrate's TestCalibratePublishedCluster, 2026-12-06, with the GEMM
// tables on), every constant with any remainder above 1% moved six
// constants: measured_hbm (10% of its effect left beside expert_hbm) and
// step_overhead_s (6%, to its 3 ms bound) among them; the worst fitted
// error fell 33.0% -> 12.8% but the held-out 32K burst rose 29.6% ->
// 34.3%. With a quarter required, the fit moves measured_compute,
// expert_hbm, large_step_per_layer_s and step_per_seq_s: 33.0% -> 15.4%,
// held out 29.9%. The global fit (Options.Typical, hundreds of values from
// many sources) keeps the 1% threshold alone: its constants were fitted so.
const identifiableShare = 0.25

// jacobianStep is the forward-difference step, as a fraction of a
// constant's log range.
const jacobianStep = 0.02

// jacobian is, per constant, the change of every log prediction per unit
// of its normalised log range, by a forward difference at the start (a
// backward one at the upper bound).
func jacobian(params []Param, base []float64, c *counter) [][]float64 {
	out := make([][]float64, len(params))
	for i, p := range params {
		span := math.Log(p.Upper / p.Lower)
		h := jacobianStep
		if math.Log(p.Upper/p.Start) < h*span {
			h = -h
		}
		x := starts(params)
		x[i] = p.Start * math.Exp(h*span)
		moved := c.eval(x)
		col := make([]float64, len(base))
		for j := range base {
			if d := logChange(moved[j], base[j]); !math.IsInf(d, 1) {
				col[j] = math.Log(moved[j]/base[j]) / h
			}
		}
		out[i] = col
	}
	return out
}

// pct renders a |log change| as the percentage change it is.
func pct(d float64) string { return fmt.Sprintf("%.1f%%", 100*(math.Exp(d)-1)) }

// residual is v minus its projection on the orthonormal basis.
func residual(v []float64, basis [][]float64) []float64 {
	r := append([]float64(nil), v...)
	for _, b := range basis {
		d := dot(r, b)
		for j := range r {
			r[j] -= d * b[j]
		}
	}
	return r
}

func normalise(v []float64) []float64 {
	n := math.Sqrt(dot(v, v))
	out := make([]float64, len(v))
	for j := range v {
		out[j] = v[j] / n
	}
	return out
}

func dot(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		s += a[j] * b[j]
	}
	return s
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}

// reach predicts every target at the corners of the box that make it
// smallest and largest: for each target, every constant at whichever bound
// (alone) lowered that prediction, then at whichever raised it. The model's
// predictions are monotone in each constant (more efficiency, less time),
// so a measurement outside that span cannot be reproduced by any constants
// in the box. Targets that move the same way share their corners.
func reach(params []Param, sens []sensitivity, base []float64, c *counter) (lo, hi []float64) {
	lo, hi = append([]float64(nil), base...), append([]float64(nil), base...)
	seen := map[string][]float64{}
	for j := range base {
		low, high := starts(params), starts(params)
		for i, p := range params {
			if sens[i].atUpper[j] < sens[i].atLower[j] {
				low[i], high[i] = p.Upper, p.Lower
			} else {
				low[i], high[i] = p.Lower, p.Upper
			}
		}
		for _, x := range [][]float64{low, high} {
			key := fmt.Sprint(x)
			pred, ok := seen[key]
			if !ok {
				pred = c.eval(x)
				seen[key] = pred
			}
			widen(&lo[j], &hi[j], pred[j])
		}
		for _, s := range sens {
			widen(&lo[j], &hi[j], s.atLower[j])
			widen(&lo[j], &hi[j], s.atUpper[j])
		}
	}
	return lo, hi
}

// widen stretches [lo, hi] to include a usable value v.
func widen(lo, hi *float64, v float64) {
	if v > 0 && !math.IsInf(v, 0) {
		*lo, *hi = min(*lo, v), max(*hi, v)
	}
}

// reachable keeps the targets whose measurement lies within the predicted
// span; the others are reported with the span.
func reachable(targets []Target, lo, hi []float64) ([]bool, []Exclusion) {
	keep := make([]bool, len(targets))
	var excl []Exclusion
	for j, t := range targets {
		if t.Measured >= lo[j] && t.Measured <= hi[j] {
			keep[j] = true
			continue
		}
		excl = append(excl, Exclusion{Index: j, ID: t.ID, Reason: fmt.Sprintf(
			"measured %s, but the model predicts between %s and %s with every constant anywhere in its range: the difference comes from something the model does not represent",
			num(t.Measured), num(lo[j]), num(hi[j]))})
	}
	return keep, excl
}

// num formats a value with four significant digits.
func num(v float64) string { return fmt.Sprintf("%.4g", v) }
