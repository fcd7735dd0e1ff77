package replay

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/fitter"
	"github.com/vlaunch/vlaunch/published"
)

// Param is one efficiency constant a fit may move, within [Lower, Upper].
type Param struct {
	Name         string
	Lower, Upper float64
	get          func(*perf.Efficiency) *float64
}

// Params are the fitted constants and the box the global fit searches.
// On a GPU whose kernels were measured (perf.ForGPU: H100, H200, B200,
// B300, GB200, A100, L40S, RTX PRO 6000) the measured GEMM, FP8 GEMM, HBM
// and kernel-gap figures, scaled by measured_compute and measured_hbm
// (the share of the isolated rates a serving step reaches), replace gemm,
// gemm_fp8, hbm and kernel_gap_s, so those four are fitted on the other
// GPUs' rows only (H20, AMD). With perf.UseH20KernelFigures the H20's gemm
// and attention are its cited figures (unscaled), with perf.UseAMDKernelFigures
// the AMD GPUs' GEMM and prefill attention, and with perf.UseSharedDieTables
// the H800 reads the H100's tables: the fitted gemm and attention then
// serve only what those leave to them.
// The bounds are physical assumptions, not fitted values: a kernel reaches
// between half and nine tenths of a datasheet figure (large FP8 GEMMs reach
// 0.6–0.8 of peak — DeepGEMM 1,550 of 1,979 TFLOPS on H800 —, FlashMLA 0.67,
// STREAM 0.8–0.9 of HBM, DeepEP's normal kernels 43–58 of a 50 GB/s NIC);
// below that the gap is an effect the model does not represent, which a
// fit must not absorb into an efficiency. Host costs range from a CUDA-graph
// replay to the slowest eager engine in the data; per running sequence the
// host's loops (scheduling, input preparation, output processing) cost at
// most 30 µs — at 100 µs, where an unbounded fit went, a 512-sequence step
// would spend 51 ms on the host alone, beyond any published V1 decode
// step — and a compiled step's launches at most 400 µs per dense-layer
// equivalent (≈35 µs per operation). A constant that settles on a bound
// marks a mechanism the model lacks, reported with the fit.
//
// sglang_eager_per_layer_s leaves the list under perf.UseCitedSGLangEager:
// it is then set from SGLang's own measurement (perf.
// CitedSGLangEagerPerLayerS), not fitted — it had been pinned by one
// source (inferencex-pr-3363; LOSOFile) — so neither the global fit nor a
// leave-one-source-out refit moves it, and LOSO.Efficiency keeps the cited
// value whatever the file holds for it. The switch is read once, when the
// package is initialised (flip it in the source, not in a test).
var Params = globalParams(allParams)

// globalParams is the constants of all the global fit moves: all of them
// but those set from a cited measurement (perf.UseCitedSGLangEager).
func globalParams(all []Param) []Param {
	var out []Param
	for _, p := range all {
		if p.Name == "sglang_eager_per_layer_s" && perf.UseCitedSGLangEager {
			continue
		}
		out = append(out, p)
	}
	return out
}

// allParams is every constant with a physical box (PhysicalBounds), the
// fitted ones (Params) and those set from a measurement.
var allParams = []Param{
	{"measured_compute", 0.4, 1, func(e *perf.Efficiency) *float64 { return &e.MeasuredCompute }},
	{"measured_hbm", 0.4, 1, func(e *perf.Efficiency) *float64 { return &e.MeasuredHBM }},
	{"gemm", 0.5, 0.9, func(e *perf.Efficiency) *float64 { return &e.GEMM }},
	{"gemm_fp8", 0.4, 0.9, func(e *perf.Efficiency) *float64 { return &e.GEMMFP8 }},
	{"expert_gemm", 0.03, 0.9, func(e *perf.Efficiency) *float64 { return &e.ExpertGEMM }},
	{"expert_hbm", 0.3, 1, func(e *perf.Efficiency) *float64 { return &e.ExpertHBM }},
	{"attention", 0.3, 0.9, func(e *perf.Efficiency) *float64 { return &e.Attention }},
	{"hbm", 0.6, 0.95, func(e *perf.Efficiency) *float64 { return &e.HBM }},
	{"link", 0.4, 0.95, func(e *perf.Efficiency) *float64 { return &e.Link }},
	{"kernel_gap_s", 0.5e-6, 6e-6, func(e *perf.Efficiency) *float64 { return &e.KernelGapS }},
	{"step_overhead_s", 0.1e-3, 3e-3, func(e *perf.Efficiency) *float64 { return &e.StepOverheadS }},
	{"multiproc_step_s", 10e-6, 3e-3, func(e *perf.Efficiency) *float64 { return &e.MultiprocStepS }},
	{"eager_per_layer_s", 50e-6, 2e-3, func(e *perf.Efficiency) *float64 { return &e.EagerPerLayerS }},
	{"sglang_eager_per_layer_s", 20e-6, 2e-3, func(e *perf.Efficiency) *float64 { return &e.SGLangEagerPerLayerS }},
	{"large_step_per_layer_s", 10e-6, 400e-6, func(e *perf.Efficiency) *float64 { return &e.LargeStepPerLayerS }},
	{"collective_s", 1e-6, 50e-6, func(e *perf.Efficiency) *float64 { return &e.CollectiveS }},
	{"step_per_seq_s", 1e-6, 30e-6, func(e *perf.Efficiency) *float64 { return &e.StepPerSeqS }},
	{"frontend_request_s", 0.1e-3, 10e-3, func(e *perf.Efficiency) *float64 { return &e.FrontendRequestS }},
	{"frontend_token_s", 1e-6, 60e-6, func(e *perf.Efficiency) *float64 { return &e.FrontendTokenS }},
}

// PhysicalBounds is the box of every constant of allParams by name (the
// fitted ones and those set from a measurement, which a cluster's fit may
// still move): the physical assumptions a fit of these constants must stay
// within, the global fit's and a cluster's (vlaunch calibrate) alike.
func PhysicalBounds() map[string][2]float64 {
	out := make(map[string][2]float64, len(allParams))
	for _, p := range allParams {
		out[p.Name] = [2]float64{p.Lower, p.Upper}
	}
	return out
}

// Score is the fit's criterion over targets: the worst |log error| plus a
// hundredth of the sum of squares (a tie-break towards small errors
// everywhere).
func Score(ts []Target) float64 {
	var worst, sq float64
	for _, t := range ts {
		d := math.Abs(math.Log(math.Max(t.Predicted, 1e-12) / t.Published))
		worst = math.Max(worst, d)
		sq += d * d
	}
	return worst + sq/100
}

// ReproduceAll reproduces rows in parallel with constants eff; keep selects
// the targets (nil keeps all).
func ReproduceAll(rows []published.Row, eff perf.Efficiency, keep func(Target) bool) []Target {
	out := make([][]Target, len(rows))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ts, err := Reproduce(rows[i], eff, Options{Seed: 1})
				if err == nil {
					out[i] = ts
				}
			}
		}()
	}
	for i := range rows {
		next <- i
	}
	close(next)
	wg.Wait()
	var all []Target
	for _, ts := range out {
		for _, t := range ts {
			if keep == nil || keep(t) {
				all = append(all, t)
			}
		}
	}
	return all
}

// Fit moves the constants of Params to minimise the worst |log error| over
// the targets keep selects from rows (fitter.Fit: the global
// calibration's criterion, a Halton spread and Nelder–Mead in log space,
// within the bounds), starting from start, with at most evals model
// evaluations. It returns the constants and the fitter's account.
func Fit(rows []published.Row, start perf.Efficiency, keep func(Target) bool, evals int) (perf.Efficiency, fitter.Outcome, error) {
	ref := ReproduceAll(rows, start, keep)
	ids := make([]string, len(ref))
	targets := make([]fitter.Target, len(ref))
	for i, t := range ref {
		ids[i] = t.Row + " " + t.Metric
		targets[i] = fitter.Target{ID: ids[i], Measured: t.Published}
	}
	params := make([]fitter.Param, len(Params))
	for i, p := range Params {
		v := *p.get(&start)
		params[i] = fitter.Param{Name: p.Name, Start: min(p.Upper, max(p.Lower, v)), Lower: p.Lower, Upper: p.Upper}
	}
	with := func(x []float64) perf.Efficiency {
		e := start
		for i, p := range Params {
			*p.get(&e) = x[i]
		}
		return e
	}
	model := func(x []float64) []float64 {
		got := map[string]float64{}
		for _, t := range ReproduceAll(rows, with(x), keep) {
			got[t.Row+" "+t.Metric] = t.Predicted
		}
		out := make([]float64, len(ids))
		for i, id := range ids {
			out[i] = got[id]
		}
		return out
	}
	o, err := fitter.Fit(params, targets, model, fitter.Options{MaxEvals: evals, Typical: true})
	if err != nil {
		return start, o, err
	}
	return with(o.X), o, nil
}

// Fit1D moves the one constant name (a Params name) within its Params box,
// every other constant held at start, to minimise the global fit's
// criterion (fitter.TypicalCriterion: mean |log error| + a tenth of the
// worst) over the targets keep selects from rows. One constant needs no
// Nelder–Mead: a grid of fit1DGrid points across the box finds the best
// basin (the criterion is not convex: figures cross ±0 error at different
// values), and a golden-section search in the grid cells either side of
// the best point refines it to four significant digits, as fitter.Fit
// rounds. Unlike fitter.Fit it applies no reachability screen: every
// selected target counts, as every one counts in the global fit's box
// (a screen over one constant's reach would drop figures only the others
// move). It returns the value and the criterion there.
func Fit1D(rows []published.Row, start perf.Efficiency, keep func(Target) bool, name string) (float64, float64, error) {
	var box *Param
	for i := range Params {
		if Params[i].Name == name {
			box = &Params[i]
		}
	}
	if box == nil {
		return 0, 0, fmt.Errorf("no fitted constant %q (replay.Params)", name)
	}
	ref := ReproduceAll(rows, start, keep)
	if len(ref) == 0 {
		return 0, 0, fmt.Errorf("no targets to fit %s to", name)
	}
	ids := make([]string, len(ref))
	measured := make([]float64, len(ref))
	for i, t := range ref {
		ids[i], measured[i] = t.Row+" "+t.Metric, t.Published
	}
	score := func(v float64) float64 {
		e := start
		*box.get(&e) = v
		got := map[string]float64{}
		for _, t := range ReproduceAll(rows, e, keep) {
			got[t.Row+" "+t.Metric] = t.Predicted
		}
		pred := make([]float64, len(ids))
		for i, id := range ids {
			pred[i] = got[id] // a figure that failed to reproduce counts as infinitely wrong
		}
		return fitter.TypicalCriterion(measured, pred)
	}
	v, f := minimise1D(score, box.Lower, box.Upper, fit1DGrid)
	return v, f, nil
}

// fit1DGrid is how many evenly spaced values Fit1D scores across a
// constant's box before refining (31: steps of 0.02 on measured_compute's
// [0.4, 1]); each reproduces every row once.
const fit1DGrid = 31

// minimise1D returns the minimiser of f on [lo, hi] and its value: the
// best of n evenly spaced points, then a golden-section search between its
// neighbours, stopped at four significant digits (the value returned is
// rounded so, and scored as rounded).
func minimise1D(f func(float64) float64, lo, hi float64, n int) (float64, float64) {
	n = max(n, 3)
	step := (hi - lo) / float64(n-1)
	best, bestF := lo, math.Inf(1)
	for i := range n {
		x := lo + float64(i)*step
		if fx := f(x); fx < bestF {
			best, bestF = x, fx
		}
	}
	a, b := max(lo, best-step), min(hi, best+step)
	invPhi := (math.Sqrt(5) - 1) / 2
	c, d := b-invPhi*(b-a), a+invPhi*(b-a)
	fc, fd := f(c), f(d)
	for b-a > 5e-5*math.Abs(best) {
		if fc <= fd {
			b, d, fd = d, c, fc
			c = b - invPhi*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + invPhi*(b-a)
			fd = f(d)
		}
	}
	x := round4(min(hi, max(lo, (a+b)/2)))
	if fx := f(x); fx < bestF {
		return x, fx
	}
	return best, bestF
}

// round4 keeps four significant digits.
func round4(v float64) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}
