package calibrate

import (
	"fmt"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/perf"
	globalfit "github.com/vlaunch/vlaunch/estimate/replay"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// The published check's P/D rows: published/pd.yaml's runs of vLLM on the
// deployment's GPU (both pools' GPU: a P/D calibration refuses pools on
// two GPUs, PoolGPUsError), each replayed as TestCalibrationPD replays it
// (pd.RowSpec's spec, pd.EvaluateRow, pd.PredictRow: one code path, in
// estimate/pd/published.go), once with the global constants (no
// calibration file: the pools' own constants, as check predicts them and
// docs/calibration-pd.md reports them) and once with the fitted constants
// handed to both pools as the calibration file check --calibration would
// hand them (calibrationOf).
//
// A colocated deployment's check leaves them out unless UsePDRowsColocated
// says otherwise (below).
//
// Cost: each row is one pd.Evaluate per constant set (two to four pool
// simulations, each replicated three times): on the shared 2-core
// machine the seven H100 rows a calibration of Anyscale's c8 and c32
// leaves (calibrate_pd.txtar) took 0.45 s with the global constants and
// 0.75 s for both sets (TestPublishedPDPath). published/pd.yaml holds at
// most nine targetable rows per GPU, so the check stays near a second;
// pdMaxRows bounds it should the file grow.

// UsePDRowsColocated includes published/pd.yaml's P/D runs of the same GPU
// in a colocated deployment's published check too (a P/D deployment's
// check always includes them). For: the fitted constants are the GPU's
// efficiencies, and check --calibration would hand the file to both pools
// of a P/D spec on that GPU. Against, and why it is off: the P/D runs
// would then judge a colocated fit by figures that carry the P/D
// composition's own misses (llm-d's H200 TPOT +133% and E2E +47–73% with
// the global constants) and that outnumber the colocated runs on some
// GPUs (H200: 19 P/D figures beside 16 colocated ones), so they, not the
// colocated runs, would decide a colocated fit. Measured with it on:
// calibrate_fit.txtar's GPUStack DeepSeek-R1 c4 fit of throughput and TPOT
// on H200 (33.2% → 16.2% on its own figures, accepted by --strict today)
// worsens 9 of the 19 P/D figures (the four H200 P/D runs of gpt-oss-120b,
// whose decode the moved expert constants slow: anyscale-h200 c16 TPOT
// +20.5% → +37.8%), their median 20.9% → 36.5%, and --strict refuses it.
var UsePDRowsColocated = false

// pdMaxRows bounds the P/D rows one published check replays (the first
// ones of published/pd.yaml, in its order): 12, above the nine a GPU has
// today, under 2 s of evaluations at the rows' 0.05–0.1 s per constant set.
const pdMaxRows = 12

// pdFigures are the P/D rows' figures compared, by their keys in
// published/pd.yaml: those TestCalibrationPD scores (its pdMetrics).
var pdFigures = []struct {
	key  string
	pub  func(published.Figures) published.Num
	pred func(pd.RowPrediction) float64
}{
	{"ttft_ms.mean", func(f published.Figures) published.Num { return f.TTFTMs.Mean }, func(p pd.RowPrediction) float64 { return 1e3 * p.TTFTMean }},
	{"ttft_ms.median", func(f published.Figures) published.Num { return f.TTFTMs.Median }, func(p pd.RowPrediction) float64 { return 1e3 * p.TTFTP50 }},
	{"tpot_ms.mean", func(f published.Figures) published.Num { return f.TPOTMs.Mean }, func(p pd.RowPrediction) float64 { return 1e3 * p.TPOTMean }},
	{"output_tok_per_s", func(f published.Figures) published.Num { return f.OutputTokPerS }, func(p pd.RowPrediction) float64 { return p.OutTokPerS }},
	{"request_per_s", func(f published.Figures) published.Num { return f.RequestPerS }, func(p pd.RowPrediction) float64 { return p.RequestsPerS }},
	{"e2e_s.mean", func(f published.Figures) published.Num { return f.E2ES.Mean }, func(p pd.RowPrediction) float64 { return p.E2EMean }},
}

// pdRow is a published P/D run resolved for the P/D model.
type pdRow struct {
	row      published.PDRow
	pre, dec input.Input
}

// pdRowsOf lists published/pd.yaml's targetable vLLM runs on gpu, on the
// deployment's side of the legacy line, resolved from the spec pd.RowSpec
// writes; own are the rows that are one of the results given to the fit
// (the deployment's pools, samePools, and ownRun's model, load and
// lengths), left out; refused the rows that do not resolve, with why.
func pdRowsOf(dep *resolve.Deployment, gpu string, legacyDep bool, names []string, used []*bench.Result) (rows []pdRow, own, refused []string, err error) {
	set, err := published.PD()
	if err != nil {
		return nil, nil, nil, err
	}
	for _, r := range set.Rows {
		if !r.Targetable() || r.Hardware.GPU != gpu || r.Engine.Name != "vllm" {
			continue
		}
		if samePools(r, dep) && ownRun(r.Model, r.Workload, r.Load, names, used) {
			own = append(own, r.ID)
			continue
		}
		if len(rows) == pdMaxRows {
			refused = append(refused, r.ID+": beyond the check's bound of "+fmt.Sprint(pdMaxRows)+" P/D rows")
			continue
		}
		x, dep, err := resolveRow(r)
		if err != nil {
			refused = append(refused, r.ID+": "+err.Error())
			continue
		}
		if legacy(dep) != legacyDep {
			continue
		}
		rows = append(rows, x)
	}
	return rows, own, refused, nil
}

// resolveRow resolves the spec pd.RowSpec writes for r (the client's run
// as it went) as TestCalibrationPD resolves it: parsed, decoded, defaulted,
// its pools as check reads them.
func resolveRow(r published.PDRow) (pdRow, *resolve.Deployment, error) {
	y, _ := pd.RowSpec(r, true)
	root, ds := spec.ParseNode(r.ID, []byte(y))
	if ds.HasErrors() {
		return pdRow{}, nil, diagErr(ds)
	}
	d, ds := spec.Decode(r.ID, root)
	if ds.HasErrors() {
		return pdRow{}, nil, diagErr(ds)
	}
	spec.ApplyDefaults(d)
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		return pdRow{}, nil, diagErr(ds)
	}
	dep := in.Resolved()
	if dep == nil || dep.PD == nil {
		return pdRow{}, nil, fmt.Errorf("not a disaggregated deployment")
	}
	pre, dec, err := pdPools(dep)
	if err != nil {
		return pdRow{}, nil, err
	}
	return pdRow{row: r, pre: pre, dec: dec}, dep, nil
}

// predictPDRows predicts every row's figures with the constants eff (nil:
// the global constants, no calibration file) as targets the comparison
// pairs with the colocated rows'. A row the model gives no figures for
// (no scenario) has none.
func predictPDRows(rows []pdRow, eff *perf.Efficiency) []globalfit.Target {
	var out []globalfit.Target
	for _, x := range rows {
		pre, dec := x.pre, x.dec
		if eff != nil {
			pre.Calibration, dec.Calibration = calibrationOf(*eff), calibrationOf(*eff)
		}
		rep, _ := pd.EvaluateRow(x.row, &pre, &dec, slo.Options{Seed: replaySeed})
		p, _, err := pd.PredictRow(x.row, &rep)
		if err != nil {
			continue
		}
		for _, m := range pdFigures {
			n := m.pub(x.row.Figures)
			if !n.Positive() {
				continue
			}
			out = append(out, globalfit.Target{Row: x.row.ID, Source: x.row.Source, Metric: m.key, Published: n.V, Predicted: m.pred(p), Engine: "vllm"})
		}
	}
	return out
}

// ownRun reports whether a published run (a row of throughput.yaml or
// pd.yaml: its model, workload and load) is one of the results given to
// the fit: the same model, the same load (kind and size) and the same mean
// request lengths (within 2%, the rounding of totals over a few hundred
// requests). Its figures were fitted, so they are not a test of the fit.
func ownRun(m published.Model, w published.Workload, l published.Load, names []string, used []*bench.Result) bool {
	if !catalog.MatchesAny(m.ID, names) {
		return false
	}
	in, out := w.InputTokens.V, w.OutputTokens.V
	if w.InputTokensMean.Positive() {
		in = w.InputTokensMean.V
	}
	if w.OutputTokensMean.Positive() {
		out = w.OutputTokensMean.V
	}
	for _, u := range used {
		if sameLoad(l, u.Load) && near(in, u.Shape.InputTokens) && near(out, u.Shape.OutputTokens) {
			return true
		}
	}
	return false
}

// diagErr is the first error of ds.
func diagErr(ds diag.Diagnostics) error {
	for _, d := range ds {
		if d.Severity >= diag.Error {
			return fmt.Errorf("%s", d)
		}
	}
	return fmt.Errorf("%s", ds.Summary())
}

// samePools reports whether row r ran the P/D deployment dep: a colocated
// deployment never did; a P/D one did when each pool has as many instances
// of the same TP × PP × DP (the source's other layouts under the same
// client, as Anyscale's TP2 pools beside its TP4 ones, are runs the fit
// was not given).
func samePools(r published.PDRow, dep *resolve.Deployment) bool {
	if dep.PD == nil {
		return false
	}
	pools := map[string]published.PDPool{spec.RolePrefill: r.Prefill, spec.RoleDecode: r.Decode}
	for _, role := range dep.PD.Roles {
		p, ok := pools[role.Name]
		l := role.Deployment.Layout
		if !ok || p.Instances.Int() != l.ReplicaCount() || p.TP.Int() != l.TP || p.PP.Int() != l.PP || p.DP.Int() != l.DP {
			return false
		}
	}
	return true
}
