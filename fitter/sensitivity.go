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
// in order of their effect over their whole range (the one that can move
// the predictions most first; the order given breaks ties):
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
func chooseParams(params []Param, sens []sensitivity, jac [][]float64, threshold, share float64, maxFitted int) ([]bool, []Refusal) {
	order := make([]int, len(params))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sens[order[a]].effect > sens[order[b]].effect })
	fitted := make([]bool, len(params))
	var basis [][]float64 // orthonormal, spanning the chosen columns
	var chosen []string
	reasons := map[int]string{}
	for _, i := range order {
		p := params[i]
		if sens[i].effect < threshold {
			reasons[i] = fmt.Sprintf("moving it across its whole range [%s, %s] changes no prediction by %.0f%% or more (at most %s): these results do not depend on it",
				num(p.Lower), num(p.Upper), 100*threshold, pct(sens[i].effect))
			continue
		}
		if len(chosen) >= maxFitted {
			reasons[i] = fmt.Sprintf("the fitted values can test at most %d constant%s (a value must be left over to test a fit), and %s can move the predictions more: fitting it too would match any values, whatever it is",
				maxFitted, textfmt.PluralS(maxFitted), strings.Join(chosen, " and "))
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
