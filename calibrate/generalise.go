package calibrate

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/bench"
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
// reproduction), and for a P/D deployment published/pd.yaml's P/D runs of
// that GPU too, replayed through the P/D model (pdpublished.go). A cluster's few results can be fitted by constants that
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
	// PDMatch says, when published/pd.yaml's P/D runs are compared too,
	// which and why ("" when they are not: UsePDRowsColocated).
	PDMatch string `json:"pd_match,omitempty"`
	// PDRows and PDFigures are the P/D runs replayed and their figures
	// compared (Rows counts throughput.yaml's runs only; Figures, the
	// medians, Improved and Worsened count the P/D figures with the rest).
	PDRows    int `json:"pd_rows,omitempty"`
	PDFigures int `json:"pd_figures,omitempty"`
	// PDOwnRows are P/D runs left out as one of the results given to the
	// fit; PDRefused P/D runs the check could not replay, with why.
	PDOwnRows []string `json:"pd_own_rows,omitempty"`
	PDRefused []string `json:"pd_refused,omitempty"`
	// PDMedianBeforePct and PDMedianAfterPct are the median errors over the
	// P/D figures alone.
	PDMedianBeforePct float64 `json:"pd_median_error_before_pct,omitempty"`
	PDMedianAfterPct  float64 `json:"pd_median_error_after_pct,omitempty"`
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
	// PD marks a P/D run of published/pd.yaml (Metric then its key there).
	PD bool `json:"pd,omitempty"`
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
// constants and with the fitted ones and compares them: throughput.yaml's
// colocated runs, and pd.yaml's P/D runs (pdpublished.go) for a P/D
// deployment (and a colocated one, UsePDRowsColocated). used are the
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
		if ownRun(r.Model, r.Workload, r.Load, names, used) {
			pc.OwnRows = append(pc.OwnRows, r.ID)
			continue
		}
		rows = append(rows, r)
	}
	var pdRows []pdRow
	if dep.PD != nil || UsePDRowsColocated {
		pc.PDMatch = pdMatchRule
		if pdRows, pc.PDOwnRows, pc.PDRefused, err = pdRowsOf(dep, pc.GPU, legacyDep, names, used); err != nil {
			pc.PDRefused = append(pc.PDRefused, "published/pd.yaml could not be read: "+err.Error())
		}
		if dep.PD == nil && len(pdRows)+len(pc.PDOwnRows)+len(pc.PDRefused) == 0 {
			pc.PDMatch = "" // a colocated deployment on a GPU pd.yaml has no run of: nothing to say
		}
	}
	if len(rows) == 0 && len(pdRows) == 0 {
		pc.None = fmt.Sprintf("published/throughput.yaml has no vLLM run on %s of your engine's generation that was not given to the fit", pc.GPU)
		if pc.PDMatch != "" {
			pc.None = fmt.Sprintf("published/throughput.yaml and published/pd.yaml have no vLLM run on %s of your engine's generation that was not given to the fit", pc.GPU)
		}
		if own := append(append([]string(nil), pc.OwnRows...), pc.PDOwnRows...); len(own) > 0 {
			pc.None += " (its runs there are your results: " + strings.Join(own, ", ") + ")"
		}
		pc.None += ": how the fitted constants do beyond your results is unknown"
		return pc
	}
	kept := func(t globalfit.Target) bool { _, out := globalfit.Excluded(t, t.Engine); return !out }
	replayed := map[string]bool{} // rows with a figure, excluded or not: a row the replay refuses has none
	var before, after []globalfit.Target
	if len(rows) > 0 {
		before = globalfit.ReproduceAll(rows, perf.DefaultEfficiency, func(t globalfit.Target) bool {
			replayed[t.Row] = true
			if !kept(t) {
				pc.ExcludedFigures++
				return false
			}
			return true
		})
		after = globalfit.ReproduceAll(rows, fitted, kept)
	}
	pc.Rows = len(replayed)
	var pdBefore, pdAfter []globalfit.Target
	if len(pdRows) > 0 {
		pdBefore, pdAfter = predictPDRows(pdRows, nil), predictPDRows(pdRows, &fitted)
		pdReplayed := map[string]bool{}
		for _, t := range pdBefore {
			pdReplayed[t.Row] = true
		}
		pc.PDRows = len(pdReplayed)
	}
	pc.compare(before, after, pdBefore, pdAfter)
	if pc.Figures == 0 {
		pc.None = fmt.Sprintf("the %d vLLM run%s on %s left after your own publish no figure the estimator claims to reproduce (estimate/replay.Exclusions)", len(rows)+len(pdRows), textfmt.PluralS(len(rows)+len(pdRows)), pc.GPU)
		return pc
	}
	pc.setWarning(len(used), worstBefore, worstAfter)
	return pc
}

// pdMatchRule is why published/pd.yaml's runs are compared too.
const pdMatchRule = "published/pd.yaml's P/D runs of vLLM on the same GPU (both pools' GPU), replayed through the P/D model as docs/calibration-pd.md replays them: " +
	"check --calibration hands the fitted constants to both pools of a P/D spec"

// compare pairs each figure's prediction under the global constants with
// its prediction under the fitted ones (by row and metric) and fills the
// summary and the worsened figures: the colocated runs' (before, after)
// and the P/D runs' (pdBefore, pdAfter), together and the P/D ones apart.
func (pc *PublishedCheck) compare(before, after, pdBefore, pdAfter []globalfit.Target) {
	pc.Improved, pc.Worsened = 0, nil
	eb, ea := pc.pair(before, after, false)
	pb, pa := pc.pair(pdBefore, pdAfter, true)
	pc.PDFigures = len(pb)
	if len(pb) > 0 {
		pc.PDMedianBeforePct, pc.PDMedianAfterPct = pctOf(median(pb)), pctOf(median(pa))
	}
	eb, ea = append(eb, pb...), append(ea, pa...)
	pc.Figures = len(eb)
	if pc.Figures > 0 {
		pc.MedianBeforePct, pc.MedianAfterPct = pctOf(median(eb)), pctOf(median(ea))
	}
}

// pair is compare for one kind of run: the |log errors| before and after
// of each figure paired, the improved and worsened ones counted.
func (pc *PublishedCheck) pair(before, after []globalfit.Target, isPD bool) (eb, ea []float64) {
	byID := map[string]globalfit.Target{}
	for _, t := range after {
		byID[t.Row+" "+t.Metric] = t
	}
	for _, b := range before {
		a, ok := byID[b.Row+" "+b.Metric]
		if !ok || !(b.Published > 0) {
			continue
		}
		db, da := logErr(b.Predicted, b.Published), logErr(a.Predicted, a.Published)
		eb, ea = append(eb, db), append(ea, da)
		switch {
		case da > db+publishedTolerance:
			pc.Worsened = append(pc.Worsened, PublishedFigure{Row: b.Row, Source: b.Source, Metric: b.Metric, Published: b.Published, PD: isPD,
				BeforePct: pctErr(b.Predicted, b.Published), AfterPct: pctErr(a.Predicted, a.Published)})
		case da < db-publishedTolerance:
			pc.Improved++
		}
	}
	return eb, ea
}

// Worse reports whether the fitted constants predict the published figures
// worse than the global ones: their median error grew by more than the
// tolerance, over all the figures compared or over the P/D runs' alone (a
// GPU's colocated runs outnumber its P/D runs, whose median would
// otherwise vanish in theirs).
func (pc *PublishedCheck) Worse() bool {
	return pc.worseAll() || pc.worsePD()
}

func (pc *PublishedCheck) worseAll() bool {
	return pc != nil && pc.Figures > 0 && grew(pc.MedianBeforePct, pc.MedianAfterPct)
}

func (pc *PublishedCheck) worsePD() bool {
	return pc != nil && pc.PDFigures > 0 && grew(pc.PDMedianBeforePct, pc.PDMedianAfterPct)
}

// grew reports whether an error (percent) grew beyond the tolerance.
func grew(beforePct, afterPct float64) bool {
	return math.Log1p(afterPct/100) > math.Log1p(beforePct/100)+publishedTolerance
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
	pdWorse := 0
	for _, f := range pc.Worsened {
		if f.PD {
			pdWorse++
		}
	}
	switch {
	case pc.worseAll():
		pc.Warning = fmt.Sprintf("the fit %s but worsens %d published figure%s of vLLM on the same GPU (%s; median |error| over %d figures %.1f%% → %.1f%%)",
			yours, len(pc.Worsened), textfmt.PluralS(len(pc.Worsened)), pc.GPU, pc.Figures, pc.MedianBeforePct, pc.MedianAfterPct)
		if pc.PDFigures > 0 {
			pc.Warning += fmt.Sprintf("; %d of them P/D (median over the %d P/D figures %.1f%% → %.1f%%)", pdWorse, pc.PDFigures, pc.PDMedianBeforePct, pc.PDMedianAfterPct)
		}
	default:
		pc.Warning = fmt.Sprintf("the fit %s but worsens %d published figure%s of vLLM's P/D runs on the same GPU (%s; median |error| over their %d figures %.1f%% → %.1f%%, over all %d published figures %.1f%% → %.1f%%)",
			yours, pdWorse, textfmt.PluralS(pdWorse), pc.GPU, pc.PDFigures, pc.PDMedianBeforePct, pc.PDMedianAfterPct, pc.Figures, pc.MedianBeforePct, pc.MedianAfterPct)
	}
	pc.Warning += ": it may be fitting this run's noise"
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
