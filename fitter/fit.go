package fitter

import (
	"fmt"
	"math"
)

// Param is one constant the fitter may move, within [Lower, Upper] (both
// positive: the search runs in log space, where a factor of two is the
// same step at any magnitude).
type Param struct {
	Name  string
	Start float64
	Lower float64
	Upper float64
}

// Target is one measured value the predictions are compared with.
type Target struct {
	// ID names the result and metric ("c64.json tpot_median").
	ID       string
	Measured float64
}

// Model predicts every target, in order, for constants x (in Param order).
// A non-finite or non-positive prediction counts as infinitely wrong.
type Model func(x []float64) []float64

// Options tune the fit; the zero value takes the documented defaults.
type Options struct {
	// Sensitivity is the smallest change of any prediction (as |log ratio|)
	// that moving a constant across its whole range must cause for the
	// constant to be fitted. Default 0.01 (1%).
	Sensitivity float64
	// MaxEvals bounds the predictions the search may ask for. Default 1500.
	MaxEvals int
	// Typical fits the typical error instead of the worst (Criterion).
	Typical bool
	// Tolerance is the |log error| below which a target costs nothing
	// (the worst criterion only): a fit moves constants to bring every
	// target within it and no further, and the movement term then keeps
	// the constants it need not move where they started. Zero fits every
	// error down as far as it goes.
	Tolerance float64
}

// The fit's criterion. A cluster's own benchmarks (vlaunch calibrate) are
// few and alike: the worst |log error| is the right thing to minimise. The
// global calibration pools sources whose worst rows are set by mechanisms
// the model lacks; minimising the worst lets those few rows move every
// constant (in December 2026 three constants sat at a bound to serve them,
// making dense small-batch decode 45% slow), so it minimises the mean
// |log error| with a tenth of the worst, which keeps tails from running
// away: Options.Typical.
const typicalWorstWeight = 0.1

func (o Options) withDefaults() Options {
	if o.Sensitivity <= 0 {
		o.Sensitivity = 0.01
	}
	if o.MaxEvals <= 0 {
		o.MaxEvals = 1500
	}
	return o
}

// Refusal says why a constant was not fitted.
type Refusal struct {
	Name   string
	Reason string
}

// Exclusion says why a target was left out of the objective.
type Exclusion struct {
	// Index is the target's position in the targets given to Fit.
	Index  int
	ID     string
	Reason string
}

// Outcome is what a fit found.
type Outcome struct {
	// X are the constants after the fit (Start where not fitted).
	X []float64
	// Fitted reports, per param, whether the fit was allowed to move it.
	Fitted  []bool
	Refused []Refusal
	// Excluded targets lie outside what the model can predict anywhere in
	// the box; they are shown, not fitted.
	Excluded []Exclusion
	// Before and After are the predictions at Start and at X.
	Before, After []float64
	// WorstBefore and WorstAfter are the worst |log error| over the fitted
	// targets.
	WorstBefore, WorstAfter float64
	// AtBound names constants the fit left on a bound: the data asked for
	// more than the documented range allows.
	AtBound []string
	// Unchanged says why each fitted constant the fit left at its start
	// value stayed there.
	Unchanged []Refusal
	Evals     int
}

// unchanged explains each fitted constant left at its start: one at a
// bound of its range whose scan found nothing better asks for beyond it;
// one whose scan (Options.Typical does none) found nothing better cannot
// lower the worst error alone; one that could, but not beside the other
// constants fitted, is left where it does least harm with them.
func unchanged(params []Param, fitted []bool, x []float64, sens []sensitivity) []Refusal {
	var out []Refusal
	for i, p := range params {
		if !fitted[i] || x[i] != p.Start {
			continue
		}
		a := sens[i].alone
		why := fmt.Sprintf("with the other fitted constants, no value in its range [%s, %s] fits better", num(p.Lower), num(p.Upper))
		switch {
		case !a.scanned:
		case a.gain <= 0 && p.Start <= p.Lower*boundSlack:
			why = fmt.Sprintf("it starts at its lower bound %s and no value in its range [%s, %s] lowers the worst error (%s): the values ask for it lower than its range allows", num(p.Lower), num(p.Lower), num(p.Upper), pct(a.worstAt))
		case a.gain <= 0 && p.Start >= p.Upper/boundSlack:
			why = fmt.Sprintf("it starts at its upper bound %s and no value in its range [%s, %s] lowers the worst error (%s): the values ask for it higher than its range allows", num(p.Upper), num(p.Lower), num(p.Upper), pct(a.worstAt))
		case a.gain <= 0:
			why = fmt.Sprintf("no value in its range [%s, %s] lowers the worst error (%s): the value furthest off does not depend on it", num(p.Lower), num(p.Upper), pct(a.worstAt))
		}
		out = append(out, Refusal{Name: p.Name, Reason: why})
	}
	return out
}

// Fit moves the constants the targets depend on to minimise the worst
// |log(predicted/measured)| over the targets the model can reach, within
// the bounds. Constants no target depends on (Options.Sensitivity) keep
// their start value and are listed in Refused with the reason.
func Fit(params []Param, targets []Target, m Model, o Options) (Outcome, error) {
	o = o.withDefaults()
	if err := checkProblem(params, targets); err != nil {
		return Outcome{}, err
	}
	c := &counter{m: m}
	start := starts(params)
	out := Outcome{Before: c.eval(start)}
	sens := sensitivities(params, out.Before, c)
	lo, hi := reach(params, sens, out.Before, c)
	keep, excl := reachable(targets, lo, hi)
	out.Excluded = excl
	share := identifiableShare
	if o.Typical {
		share = 0 // the global fit's hundreds of values: the 1% threshold alone, as it was fitted
	}
	obj := objective(targets, keep, o.Tolerance)
	if o.Typical {
		obj = typicalObjective(targets, keep)
	} else {
		scanAlone(params, sens, out.Before, o.Sensitivity, obj, func(p []float64) float64 { return worst(targets, keep, p) }, c)
	}
	out.Fitted, out.Refused = chooseParams(params, sens, jacobian(params, out.Before, c), o.Sensitivity, share, maxFitted(keep), !o.Typical)
	x := start
	if anyTrue(out.Fitted) && anyTrue(keep) {
		f := func(x []float64) float64 { return obj(c.eval(x)) + movement(params, out.Fitted, x) }
		sm := func(x []float64, beta float64) float64 {
			pred := c.eval(x)
			if o.Typical {
				return meanErr(targets, keep, pred) + typicalWorstWeight*softWorst(targets, keep, pred, beta, 0) + movement(params, out.Fitted, x)
			}
			return softWorst(targets, keep, pred, beta, o.Tolerance) + movement(params, out.Fitted, x)
		}
		x = minimise(params, out.Fitted, start, f, sm, o.MaxEvals-c.n)
	}
	x = rounded(params, out.Fitted, x)
	out.X, out.After, out.Evals = x, c.eval(x), c.n
	out.WorstBefore = worst(targets, keep, out.Before)
	out.WorstAfter = worst(targets, keep, out.After)
	out.AtBound = atBound(params, out.Fitted, x)
	out.Unchanged = unchanged(params, out.Fitted, x, sens)
	return out, nil
}

// rounded keeps four significant digits of the fitted constants (within
// their bounds): the data does not determine more, and a calibration file
// is read by people. The predictions after the fit are those of the
// rounded values.
func rounded(params []Param, fitted []bool, x []float64) []float64 {
	out := append([]float64(nil), x...)
	for i, p := range params {
		if fitted[i] {
			out[i] = min(p.Upper, max(p.Lower, round4(x[i])))
		}
	}
	return out
}

// round4 rounds v (positive) to four significant digits.
func round4(v float64) float64 {
	p := math.Pow(10, 3-math.Floor(math.Log10(v)))
	return math.Round(v*p) / p
}

// maxFitted is how many constants n fitted values can test: n − 1, so
// that one value is left over to show the fit is more than a match (one
// constant for a single value, which it can only match).
func maxFitted(keep []bool) int {
	n := 0
	for _, k := range keep {
		if k {
			n++
		}
	}
	return max(1, n-1)
}

// checkProblem refuses a problem the fitter cannot state.
func checkProblem(params []Param, targets []Target) error {
	for _, p := range params {
		if !(p.Lower > 0 && p.Lower <= p.Start && p.Start <= p.Upper) || math.IsInf(p.Upper, 0) {
			return fmt.Errorf("constant %s: start %g is not within its bounds [%g, %g] (both positive)", p.Name, p.Start, p.Lower, p.Upper)
		}
	}
	if len(targets) == 0 {
		return fmt.Errorf("no measured value to fit")
	}
	for _, t := range targets {
		if !(t.Measured > 0) || math.IsInf(t.Measured, 0) {
			return fmt.Errorf("%s: measured value %g is not a positive number", t.ID, t.Measured)
		}
	}
	return nil
}

// counter counts model evaluations.
type counter struct {
	m Model
	n int
}

func (c *counter) eval(x []float64) []float64 {
	c.n++
	return c.m(x)
}

func starts(params []Param) []float64 {
	x := make([]float64, len(params))
	for i, p := range params {
		x[i] = p.Start
	}
	return x
}

// logErr is |log(pred/meas)|, +Inf for an unusable prediction.
func logErr(pred, meas float64) float64 {
	if !(pred > 0) || math.IsInf(pred, 0) {
		return math.Inf(1)
	}
	return math.Abs(math.Log(pred / meas))
}

// worst is the largest |log error| over the kept targets.
func worst(targets []Target, keep []bool, pred []float64) float64 {
	w := 0.0
	for i, t := range targets {
		if keep[i] {
			w = max(w, logErr(pred[i], t.Measured))
		}
	}
	return w
}

// objective is the worst-error criterion: the worst |log error| beyond
// the tolerance tol plus a hundredth of the sum of their squares, which
// breaks ties between constant sets with the same worst error in favour
// of the one that fits the other targets better.
func objective(targets []Target, keep []bool, tol float64) func(pred []float64) float64 {
	return func(pred []float64) float64 {
		w, sq := 0.0, 0.0
		for i, t := range targets {
			if !keep[i] {
				continue
			}
			d := beyond(logErr(pred[i], t.Measured), tol)
			w, sq = max(w, d), sq+d*d
		}
		return w + sq/100
	}
}

// typicalObjective is Options.Typical's criterion: the mean |log error|
// plus typicalWorstWeight × the worst.
func typicalObjective(targets []Target, keep []bool) func(pred []float64) float64 {
	return func(pred []float64) float64 {
		return meanErr(targets, keep, pred) + typicalWorstWeight*worst(targets, keep, pred)
	}
}

// TypicalCriterion is Options.Typical's criterion (the global
// calibration's: the mean |log error| plus typicalWorstWeight × the worst)
// of predictions pred against measured, every target kept. A search that
// moves one constant by other means (replay.Fit1D's grid and golden
// section) scores with it, so it minimises what the global fit minimises.
func TypicalCriterion(measured, pred []float64) float64 {
	targets := make([]Target, len(measured))
	keep := make([]bool, len(measured))
	for i, m := range measured {
		targets[i], keep[i] = Target{Measured: m}, true
	}
	return typicalObjective(targets, keep)(pred)
}

// meanErr is the mean |log error| over the kept targets.
func meanErr(targets []Target, keep []bool, pred []float64) float64 {
	sum, n := 0.0, 0
	for i, t := range targets {
		if keep[i] {
			sum += logErr(pred[i], t.Measured)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// movementWeight prices moving a constant across its whole range at a
// thousandth of a log error: negligible against any real improvement, it
// picks, among constant sets that fit equally well (constants the targets
// constrain only jointly), the one closest to where the fit started.
const movementWeight = 1e-3

// movement is the weighted distance from the start in normalised log units.
func movement(params []Param, fitted []bool, x []float64) float64 {
	d := 0.0
	for i, p := range params {
		if fitted[i] {
			d += math.Abs(math.Log(x[i]/p.Start)) / math.Log(p.Upper/p.Lower)
		}
	}
	return movementWeight * d
}

// beyond is how far an error e exceeds the tolerance tol (0 within it).
func beyond(e, tol float64) float64 {
	return max(0, e-tol)
}

// softWorst is the log-sum-exp of the |log errors| beyond the tolerance
// tol at sharpness beta: a smooth stand-in for the worst of them, within
// log(n)/beta above it.
func softWorst(targets []Target, keep []bool, pred []float64, beta, tol float64) float64 {
	var es []float64
	top := 0.0
	for i, t := range targets {
		if keep[i] {
			e := logErr(pred[i], t.Measured)
			if math.IsInf(e, 1) {
				return e
			}
			e = beyond(e, tol)
			es = append(es, e)
			top = max(top, e)
		}
	}
	sum := 0.0
	for _, e := range es {
		sum += math.Exp(beta * (e - top))
	}
	return top + math.Log(sum)/beta
}

func anyTrue(b []bool) bool {
	for _, v := range b {
		if v {
			return true
		}
	}
	return false
}

// atBound lists fitted constants within 0.1% of a bound.
// boundSlack is how close to a bound (as a ratio) a fitted constant is
// reported as left on it.
const boundSlack = 1.005

func atBound(params []Param, fitted []bool, x []float64) []string {
	var out []string
	for i, p := range params {
		// Half a per cent: the minimiser stops just inside a bound and
		// rounding to four digits can leave it there (1.001e-06 for a lower
		// bound of 1e-06 was not reported).
		if fitted[i] && (x[i] <= p.Lower*boundSlack || x[i] >= p.Upper/boundSlack) {
			out = append(out, p.Name)
		}
	}
	return out
}
