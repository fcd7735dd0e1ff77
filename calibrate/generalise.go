package calibrate

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/perf"
	globalfit "github.com/vlaunch/vlaunch/estimate/replay"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// PublishedCheck is how the fit does on published figures it was not
// given (issue #28): the runs of published/throughput.yaml that share the
// deployment's GPU and engine, replayed once with the global constants and
// once with the fitted ones (estimate/replay, the global calibration's own
// reproduction). A cluster's few results can be fitted by constants that
// only describe that run's noise; on other runs of the same GPU they then
// predict worse than the global constants (three GPUStack DeepSeek-R1 runs
// once fitted constants that put the same cluster's 32K burst at 32.6% off
// where the global ones reached 17.2%).
type PublishedCheck struct {
	// Match says which published runs were compared, and why those.
	Match string `json:"match"`
	// GPU and Engine are the deployment's: the catalog GPU id and "vllm".
	GPU    string `json:"gpu"`
	Engine string `json:"engine"`
	// Rows is how many published runs were replayed (of those matched, the
	// ones the replay reproduces); Figures how many of their figures were
	// compared.
	Rows    int `json:"rows"`
	Figures int `json:"figures"`
	// OwnRows are published runs left out because they are one of the
	// results given to the fit (the same model, load and request shape):
	// the fit saw them.
	OwnRows []string `json:"own_rows,omitempty"`
	// ExcludedFigures counts the figures the global calibration does not
	// claim to reproduce (estimate/replay.Exclusions), left out here too.
	ExcludedFigures int `json:"excluded_figures"`
	// MedianBeforePct and MedianAfterPct are the median error over the
	// compared figures with the global and with the fitted constants, as
	// the larger of predicted/measured and measured/predicted, minus 1 (the
	// fit's |log| criterion as a percentage, like the worst error).
	MedianBeforePct float64 `json:"median_error_before_pct"`
	MedianAfterPct  float64 `json:"median_error_after_pct"`
	// Improved counts the figures the fit predicts better.
	Improved int `json:"improved"`
	// Worsened are the figures the fit predicts worse.
	Worsened []PublishedFigure `json:"worsened,omitempty"`
	// Warning is the warning's sentence when the fitted constants are
	// worse than the global ones on these figures (their median error
	// grew), "" otherwise.
	Warning string `json:"warning,omitempty"`
	// None says why nothing was compared ("" when figures were).
	None string `json:"none,omitempty"`
}

// PublishedFigure is one published figure with its error under the global
// and the fitted constants.
type PublishedFigure struct {
	Row    string `json:"row"`
	Source string `json:"source"`
	// Metric is the figure's key in published/throughput.yaml (ttft_ms.mean).
	Metric    string  `json:"metric"`
	Published float64 `json:"published"`
	// BeforePct and AfterPct are predicted/measured − 1, in percent.
	BeforePct float64 `json:"error_before_pct"`
	AfterPct  float64 `json:"error_after_pct"`
}

// publishedTolerance is the growth of a figure's |log error| (and of the
// median's) below which it counts as unchanged: 1%, under the precision of
// the published figures themselves (two to four significant digits, and
// runs of the same benchmark that differ by a few percent); without it a
// constant the fit nudged would list figures that moved by 0.01%.
const publishedTolerance = 0.01

// matchRule is why the compared runs are those of the same GPU, engine and
// engine generation, whatever their model: the constants a calibration
// fits are the GPU's efficiencies (its GEMM, attention and HBM rates, or the
// share of its measured kernels' rates a serving step reaches) and the
// engine's host and API-server costs, which act on every model that GPU and
// engine run; the MoE constants act on MoE models only, so a dense run shows
// what the rest of the fit does to it. Runs of other engines are left out
// because a calibration file only ever predicts vLLM deployments, and the
// host costs it fits are vLLM's; runs on the other side of the bands'
// legacy line (vLLM before 0.8, whose default was the V0 engine, or an AMD
// GPU: band.Legacy) because the estimator predicts them as a class of their
// own, with errors of their own, that a fit on the other side never meant
// to describe.
const matchRule = "vLLM runs on the same GPU, any model, on the same side of the bands' legacy line (V0-era vLLM before 0.8): " +
	"the fitted constants are that GPU's efficiencies and vLLM's host costs, which act on every model it serves"

// legacy is the deployment's side of the bands' legacy line, as
// estimate/slo's classOf draws it for check: an AMD GPU, or a release
// before V1 became the default.
func legacy(dep *resolve.Deployment) bool {
	return (dep.GPU != nil && dep.GPU.Vendor == "amd") || dep.Release.EngineEra().V1Default == vllm.Absent
}

// comparable reports whether published row r is a run the fit's constants
// act on as they act on dep (matchRule).
func comparable(r published.Row, gpu string, legacyDep bool) bool {
	return r.Targetable() && r.Hardware.GPU == gpu && r.Engine.Name == "vllm" && (globalfit.ClassOf(r) == band.Legacy) == legacyDep
}

// checkPublished replays the published runs matching dep with the global
// constants and with the fitted ones and compares them. used are the
// results given to the fit; fitted the constants it found; worstBefore and
// worstAfter its worst |log error| over them, for the warning.
func checkPublished(dep *resolve.Deployment, used []*bench.Result, fitted perf.Efficiency, worstBefore, worstAfter float64) *PublishedCheck {
	pc := &PublishedCheck{Match: matchRule, Engine: "vllm"}
	if dep.GPU == nil {
		pc.None = "the deployment names no catalog GPU, so no published run can be matched to it"
		return pc
	}
	pc.GPU = dep.GPU.ID
	set, err := published.Throughput()
	if err != nil {
		pc.None = "the published runs could not be read: " + err.Error()
		return pc
	}
	names, legacyDep := modelNames(dep), legacy(dep)
	var rows []published.Row
	for _, r := range set.Rows {
		if !comparable(r, pc.GPU, legacyDep) {
			continue
		}
		if ownRun(r, names, used) {
			pc.OwnRows = append(pc.OwnRows, r.ID)
			continue
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		pc.None = fmt.Sprintf("published/throughput.yaml has no vLLM run on %s of your engine's generation that was not given to the fit", pc.GPU)
		if len(pc.OwnRows) > 0 {
			pc.None += " (its runs there are your results: " + strings.Join(pc.OwnRows, ", ") + ")"
		}
		pc.None += ": how the fitted constants do beyond your results is unknown"
		return pc
	}
	kept := func(t globalfit.Target) bool { _, out := globalfit.Excluded(t, t.Engine); return !out }
	replayed := map[string]bool{} // rows with a figure, excluded or not: a row the replay refuses has none
	before := globalfit.ReproduceAll(rows, perf.DefaultEfficiency, func(t globalfit.Target) bool {
		replayed[t.Row] = true
		if !kept(t) {
			pc.ExcludedFigures++
			return false
		}
		return true
	})
	after := globalfit.ReproduceAll(rows, fitted, kept)
	pc.Rows = len(replayed)
	pc.compare(before, after)
	if pc.Figures == 0 {
		pc.None = fmt.Sprintf("the %d vLLM run%s on %s left after your own publish no figure the estimator claims to reproduce (estimate/replay.Exclusions)", len(rows), textfmt.PluralS(len(rows)), pc.GPU)
		return pc
	}
	pc.setWarning(len(used), worstBefore, worstAfter)
	return pc
}

// compare pairs each figure's prediction under the global constants with
// its prediction under the fitted ones (by row and metric) and fills the
// summary and the worsened figures.
func (pc *PublishedCheck) compare(before, after []globalfit.Target) {
	byID := map[string]globalfit.Target{}
	for _, t := range after {
		byID[t.Row+" "+t.Metric] = t
	}
	var eb, ea []float64
	pc.Improved, pc.Worsened = 0, nil
	for _, b := range before {
		a, ok := byID[b.Row+" "+b.Metric]
		if !ok || !(b.Published > 0) {
			continue
		}
		db, da := logErr(b.Predicted, b.Published), logErr(a.Predicted, a.Published)
		eb, ea = append(eb, db), append(ea, da)
		switch {
		case da > db+publishedTolerance:
			pc.Worsened = append(pc.Worsened, PublishedFigure{Row: b.Row, Source: b.Source, Metric: b.Metric, Published: b.Published,
				BeforePct: pctErr(b.Predicted, b.Published), AfterPct: pctErr(a.Predicted, a.Published)})
		case da < db-publishedTolerance:
			pc.Improved++
		}
	}
	pc.Figures = len(eb)
	if pc.Figures > 0 {
		pc.MedianBeforePct, pc.MedianAfterPct = pctOf(median(eb)), pctOf(median(ea))
	}
}

// Worse reports whether the fitted constants predict the published figures
// worse than the global ones: their median error grew by more than the
// tolerance.
func (pc *PublishedCheck) Worse() bool {
	if pc == nil || pc.Figures == 0 {
		return false
	}
	return math.Log1p(pc.MedianAfterPct/100) > math.Log1p(pc.MedianBeforePct/100)+publishedTolerance
}

// setWarning writes the warning when Worse: what the fit did to the user's
// results against what it did to the published figures.
func (pc *PublishedCheck) setWarning(results int, worstBefore, worstAfter float64) {
	pc.Warning = ""
	if !pc.Worse() {
		return
	}
	yours := fmt.Sprintf("improves your %d result%s (worst error %.1f%% → %.1f%%)", results, textfmt.PluralS(results), pctOf(worstBefore), pctOf(worstAfter))
	if worstAfter > worstBefore+worseTolerance {
		yours = fmt.Sprintf("fits your %d result%s (worst error %.1f%% → %.1f%%)", results, textfmt.PluralS(results), pctOf(worstBefore), pctOf(worstAfter))
	}
	pc.Warning = fmt.Sprintf("the fit %s but worsens %d published figure%s of vLLM on the same GPU (%s; median |error| over %d figures %.1f%% → %.1f%%): it may be fitting this run's noise",
		yours, len(pc.Worsened), textfmt.PluralS(len(pc.Worsened)), pc.GPU, pc.Figures, pc.MedianBeforePct, pc.MedianAfterPct)
}

// ownRun reports whether published row r is one of the results given to
// the fit: the same model, the same load (kind and size) and the same mean
// request lengths (within 2%, the rounding of totals over a few hundred
// requests). Its figures were fitted, so they are not a test of the fit.
func ownRun(r published.Row, names []string, used []*bench.Result) bool {
	if !catalog.MatchesAny(r.Model.ID, names) {
		return false
	}
	in, out := r.Workload.InputTokens.V, r.Workload.OutputTokens.V
	if r.Workload.InputTokensMean.Positive() {
		in = r.Workload.InputTokensMean.V
	}
	if r.Workload.OutputTokensMean.Positive() {
		out = r.Workload.OutputTokensMean.V
	}
	for _, u := range used {
		if sameLoad(r.Load, u.Load) && near(in, u.Shape.InputTokens) && near(out, u.Shape.OutputTokens) {
			return true
		}
	}
	return false
}

// sameLoad compares a published load with a benchmark result's.
func sameLoad(p published.Load, b bench.Load) bool {
	switch b.Kind {
	case bench.LoadClosedLoop:
		return p.Kind == published.LoadClosedLoop && p.Concurrency.Int() == b.Concurrency
	case bench.LoadBurst:
		return p.Kind == published.LoadBurst && p.BurstRequests.Int() == b.Prompts
	case bench.LoadPoisson:
		return p.Kind == published.LoadPoisson && near(p.RequestRatePerS.V, b.RatePerS)
	}
	return false
}

// near is within 2% of each other.
func near(a, b float64) bool { return a > 0 && b > 0 && math.Abs(a-b) <= 0.02*math.Max(a, b) }

// offCap is how far off a prediction that is not a positive number (a
// replay that stalled) counts: 10,000×, worse than any figure a replay
// reproduces, and finite, so that medians and the JSON report stay numbers.
const offCap = 1e4

// logErr is |log(predicted/measured)|, at most log(offCap).
func logErr(pred, meas float64) float64 {
	e := math.Abs(math.Log(pred / meas))
	if math.IsNaN(e) || !(pred > 0) || e > math.Log(offCap) {
		return math.Log(offCap)
	}
	return e
}

// pctErr is predicted/measured − 1 in percent, within ±offCap.
func pctErr(pred, meas float64) float64 {
	r := pred / meas
	if math.IsNaN(r) || !(pred > 0) || r > offCap {
		return 100 * (offCap - 1)
	}
	return 100 * (math.Max(r, 1/offCap) - 1)
}

// median of xs.
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
