package calibrate

import (
	"fmt"
	"math"
	"sort"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/calfile"
	"github.com/vlaunch/vlaunch/fitter"
)

// Report is what a calibration did: which results it used, how every
// constant moved (or why it did not), and every fitted value before and
// after.
type Report struct {
	Deployment string `json:"deployment"`
	// Start names the constants the fit started from.
	Start     string           `json:"start"`
	Results   []ResultReport   `json:"results"`
	Constants []ConstantReport `json:"constants"`
	Targets   []TargetReport   `json:"targets"`
	// Worst error over the fitted values, in percent: max(predicted/measured,
	// measured/predicted) − 1, the fit's |log| criterion as a percentage (an
	// under-prediction by 73.8% is 282%).
	WorstBeforePct float64 `json:"worst_error_before_pct"`
	WorstAfterPct  float64 `json:"worst_error_after_pct"`
	// AtBound are constants the fit left on a bound of their range.
	AtBound []string `json:"at_bound,omitempty"`
	// Worsened are the figures (fitted or shown) the fit predicts worse
	// than before: their |log(predicted/measured)| grew. A minimax fit
	// trades them for the worst one, and a user must see the trade (#27).
	Worsened []Worsened `json:"worsened,omitempty"`
	// WorstWorsened says the worst error over the fitted values grew.
	WorstWorsened bool `json:"worst_error_worsened,omitempty"`
	// Published is how the fit does on the published runs of the same GPU
	// and engine it was not given (nil when nothing was fitted: Compare).
	Published *PublishedCheck `json:"published,omitempty"`
	Evals     int             `json:"simulated_evaluations"`

	used     []int // indexes of Results that were replayed
	previous *calfile.File
}

// ResultReport is one benchmark result and whether it was used.
type ResultReport struct {
	Name   string `json:"name"`
	Source string `json:"file"`
	Record int    `json:"record"`
	Format string `json:"format"`
	Load   string `json:"load"`
	Shape  string `json:"shape"`
	// Endpoint says which OpenAI endpoint the replay calls when the result
	// records it (endpointFor: the result's, over the spec's workload.api);
	// "" when it records none and the spec's is used.
	Endpoint string `json:"endpoint,omitempty"`
	// NotUsed says why the result was left out ("" when used).
	NotUsed string `json:"not_used,omitempty"`
	// Failed says how many of the run's requests failed, when any did
	// (failedText).
	Failed string `json:"failed,omitempty"`
	// Notes are how the result was read where its file left something
	// out (bench.Result.Notes: an unclosed summary block, a duration
	// derived from totals, a client's ramp-up replayed at once).
	Notes []string `json:"notes,omitempty"`
}

// failedText says that some of a run's requests failed: the client's
// figures (throughput, latencies, the request shape) count only the ones
// that completed, which a user must know to read the fit. "" when none
// failed.
func failedText(r *bench.Result) string {
	if r.Failed <= 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d requests failed: the client's figures count only the %d that completed", r.Failed, r.Completed+r.Failed, r.Completed)
}

// ConstantReport is one constant before and after.
type ConstantReport struct {
	Name   string  `json:"name"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Fitted bool    `json:"fitted"`
	// Why says why a constant was not fitted, or why a fitted one stayed
	// at its start (fitter.Outcome.Unchanged).
	Why string `json:"why,omitempty"`
}

// TargetReport is one measured value with its predictions.
type TargetReport struct {
	Result   string  `json:"result"`
	Metric   string  `json:"metric"`
	Measured float64 `json:"measured"`
	Before   float64 `json:"before"`
	After    float64 `json:"after"`
	Fitted   bool    `json:"fitted"`
	// Why says why a value was shown but not fitted.
	Why string `json:"why,omitempty"`
	// Note qualifies what a fitted value shows (an open loop's offered load).
	Note string `json:"note,omitempty"`
	// Binds says, on a P/D deployment, what binds the figure in the P/D
	// model (the pool, or TTFT's parts by pool).
	Binds string `json:"binds,omitempty"`
}

// Worsened is one figure whose error the fit made worse.
type Worsened struct {
	// Figure is the result and the metric ("c4.json output tok/s").
	Figure string `json:"figure"`
	// BeforePct and AfterPct are predicted/measured − 1, in percent.
	BeforePct float64 `json:"error_before_pct"`
	AfterPct  float64 `json:"error_after_pct"`
	Fitted    bool    `json:"fitted"`
}

// worseTolerance is the growth of |log error| below which a figure counts
// as unchanged: half the last digit the report prints of an error (0.1%),
// so that a growth the report cannot show (qa/realin40's 07 run alone: a
// shown, not fitted TPOT from 545.6 to 545.7 ms, "+147.2% -> +147.2%")
// is neither warned of nor fails --strict; floating-point noise is far
// below it.
const worseTolerance = 5e-4

// findWorsened lists the figures whose error grew and whether the worst
// error over the fitted values did.
func (r *Report) findWorsened(worstBefore, worstAfter float64) {
	r.Worsened = nil
	for _, t := range r.Targets {
		before, after := math.Abs(math.Log(t.Before/t.Measured)), math.Abs(math.Log(t.After/t.Measured))
		if after > before+worseTolerance || (math.IsNaN(after) && !math.IsNaN(before)) {
			r.Worsened = append(r.Worsened, Worsened{Figure: t.Result + " " + t.Metric,
				BeforePct: 100 * (t.Before/t.Measured - 1), AfterPct: 100 * (t.After/t.Measured - 1), Fitted: t.Fitted})
		}
	}
	r.WorstWorsened = worstAfter > worstBefore+worseTolerance
}

// fill records the fit's outcome.
func (r *Report) fill(params []fitter.Param, targets []target, out fitter.Outcome) {
	refused := map[string]string{}
	for _, f := range out.Refused {
		refused[f.Name] = f.Reason
	}
	for _, f := range out.Unchanged {
		refused[f.Name] = f.Reason
	}
	for i, p := range params {
		why := refused[p.Name]
		if c, ok := calfile.Lookup(p.Name); ok && why != "" && !out.Fitted[i] {
			why += "; it is moved by " + c.MovedBy
		}
		r.Constants = append(r.Constants, ConstantReport{Name: p.Name, Before: p.Start, After: out.X[i], Fitted: out.Fitted[i], Why: why})
	}
	excluded := map[int]string{}
	for _, e := range out.Excluded {
		excluded[e.Index] = e.Reason
	}
	for j, t := range targets {
		why, skip := excluded[j]
		r.Targets = append(r.Targets, TargetReport{Result: r.Results[r.used[t.result]].Name, Metric: t.label(), Measured: t.measured,
			Before: out.Before[j], After: out.After[j], Fitted: !skip, Why: why, Note: t.note})
	}
	r.WorstBeforePct, r.WorstAfterPct = pctOf(out.WorstBefore), pctOf(out.WorstAfter)
	r.AtBound, r.Evals = out.AtBound, out.Evals
	r.findWorsened(out.WorstBefore, out.WorstAfter)
}

// pctOf turns a |log error| into the percentage it is.
func pctOf(d float64) float64 { return 100 * (math.Exp(d) - 1) }

// Worse reports whether the fit made any figure, or the worst error, worse.
func (r *Report) Worse() bool { return len(r.Worsened) > 0 || r.WorstWorsened }

// Fitted reports whether the fit fitted anything: a constant free to move
// and a figure it was fitted to. With no figure fitted (each out of the
// model's reach) no constant was fitted, whatever the fitter was free to
// move (qa44c F2: such a fit exited 0 and wrote a calibration file).
func (r *Report) Fitted() bool {
	if r.FittedFigures() == 0 {
		return false
	}
	for _, c := range r.Constants {
		if c.Fitted {
			return true
		}
	}
	return false
}

// FittedFigures counts the figures the fit was fitted to.
func (r *Report) FittedFigures() int {
	n := 0
	for _, t := range r.Targets {
		if t.Fitted {
			n++
		}
	}
	return n
}

// worstText is the report's line on the worst error over the fitted
// figures, or that no figure was fitted (then there is no worst error to
// give: "0.0% before, 0.0% after" read as a perfect fit).
func (r *Report) worstText() string {
	if r.FittedFigures() == 0 {
		return fmt.Sprintf("No figure was fitted: each is out of the model's reach, as said above (%d simulations); no constant moved.", r.Evals)
	}
	return fmt.Sprintf("Worst error over the fitted values, as the larger of predicted/measured and measured/predicted, minus 1: %.1f%% before, %.1f%% after (%d simulations).",
		r.WorstBeforePct, r.WorstAfterPct, r.Evals)
}

// File is the calibration file of this fit: the constants it fitted, and
// the ones a previous calibration file of the deployment set and this fit
// did not (the others keep their global values, which may improve with
// vlaunch). prov gives when and what; its Results are filled here.
func (r *Report) File(prov calfile.Provenance) *calfile.File {
	f := &calfile.File{Schema: calfile.Schema, Constants: map[string]float64{}, Provenance: prov}
	if r.previous != nil {
		for k, v := range r.previous.Constants {
			f.Constants[k] = v
		}
	}
	rec := &calfile.FitRecord{Criterion: criterion, WorstErrorBeforePct: round4(r.WorstBeforePct), WorstErrorAfterPct: round4(r.WorstAfterPct)}
	for _, c := range r.Constants {
		if c.Fitted {
			f.Constants[c.Name] = c.After
		}
		rec.Constants = append(rec.Constants, calfile.ConstantRecord{Name: c.Name, Before: c.Before, After: c.After, Fitted: c.Fitted, Note: c.Why})
	}
	for _, t := range r.Targets {
		rec.Targets = append(rec.Targets, calfile.TargetRecord{ID: t.Result + " " + t.Metric, Measured: t.Measured,
			Before: round4(t.Before), After: round4(t.After), Fitted: t.Fitted, Note: t.Why})
	}
	f.Fit = rec
	for _, i := range r.used {
		res := r.Results[i]
		f.Provenance.Results = append(f.Provenance.Results, calfile.ResultRef{File: res.Source, Record: res.Record, Format: res.Format, Load: res.Load, Shape: res.Shape})
	}
	sort.SliceStable(f.Provenance.Results, func(a, b int) bool { return f.Provenance.Results[a].File < f.Provenance.Results[b].File })
	return f
}

const criterion = "worst |log(predicted/measured)| over the fitted values, plus a hundredth of their sum of squares; constants bounded to their documented ranges"

// round4 keeps four significant digits (the file is for reading).
func round4(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	p := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}
