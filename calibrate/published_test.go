package calibrate

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/calfile"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/validate"
)

// vllmResult writes a published row as `vllm bench serve --save-result`
// would have saved the run (the keys of vllm/benchmarks/serve.py): the
// row's load, totals from its mean lengths, its throughput, duration and
// latency statistics. Nothing is computed into a figure but the token
// totals, which the client records and the row gives as means.
func vllmResult(t *testing.T, dir string, r published.Row) string {
	t.Helper()
	n := r.Load.NumPrompts.Int()
	mean := func(m, nominal published.Num) float64 {
		if m.Known {
			return m.V
		}
		return nominal.V
	}
	// The row's endpoint as vllm bench serve's --backend names it
	// (resultAPI): openai-chat for the chat endpoint, openai for
	// completions.
	backend := "openai-chat"
	if r.Workload.API == published.APICompletions {
		backend = "openai"
	}
	res := map[string]any{
		"date": "20260106-000000", "endpoint_type": backend, "backend": backend, "label": nil,
		"model_id": r.Model.ID, "tokenizer_id": r.Model.ID, "num_prompts": n,
		"request_rate": "inf", "burstiness": 1.0, "max_concurrency": nil,
		"duration": r.Figures.DurationS.V, "completed": n, "failed": 0,
		"total_input_tokens":  math.Round(mean(r.Workload.InputTokensMean, r.Workload.InputTokens) * float64(n)),
		"total_output_tokens": math.Round(mean(r.Workload.OutputTokensMean, r.Workload.OutputTokens) * float64(n)),
		"request_throughput":  r.Figures.RequestPerS.V, "output_throughput": r.Figures.OutputTokPerS.V,
		"total_token_throughput": r.Figures.TotalTokPerS.V, "request_goodput": nil,
	}
	if r.Load.Kind == published.LoadClosedLoop {
		res["max_concurrency"] = r.Load.Concurrency.Int()
	}
	for metric, s := range map[string]published.Stat{"ttft": r.Figures.TTFTMs, "tpot": r.Figures.TPOTMs, "itl": r.Figures.ITLMs} {
		for name, v := range map[string]published.Num{"mean": s.Mean, "median": s.Median, "p99": s.P99} {
			if v.Known {
				res[name+"_"+metric+"_ms"] = v.V
			}
		}
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, r.ID+".json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// publishedResults writes the rows as result files and reads them back
// through the parser.
func publishedResults(t *testing.T, ids ...string) []bench.Result {
	t.Helper()
	set, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]published.Row{}
	for _, r := range set.Rows {
		rows[r.ID] = r
	}
	dir := t.TempDir()
	var out []bench.Result
	for _, id := range ids {
		r, ok := rows[id]
		if !ok || !r.Targetable() {
			t.Fatalf("row %s is not a targetable row of published/throughput.yaml", id)
		}
		rs, err := bench.ReadFile(vllmResult(t, dir, r))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rs...)
	}
	return out
}

func gpustackCluster(t *testing.T) *resolve.Deployment {
	t.Helper()
	r, ds, err := validate.File("testdata/gpustack-h200.yaml")
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v", err, ds)
	}
	return r
}

// TestCalibratePublishedCluster is the calibration's acceptance test on
// published figures: GPUStack's DeepSeek-R1 runs on one vLLM 0.11.0 node
// of 8 H200 — two bursts (4,000 and 2,000-token prompts, 500 each) and a
// closed loop of 4 ShareGPT sessions — written as `vllm bench serve`
// results. The calibration must bring every fitted value within 30% (the
// global calibration's target: the closed loop of 4 sessions and the
// bursts pull the constants apart — docs/calibration-throughput.md
// excludes that closed loop from the global fit for the reason it gives),
// and predict a run it did not see on the same cluster (a burst of 100
// prompts of 32,000 tokens: far longer prompts) within 3 points of the
// global constants' error (see the bound below for why 3).
//
// It does so from two starts. How far the global constants miss these runs
// is a property of the global model, not of calibrate (50% and more before
// the measured fused-MoE curves, 39.7% with MLA's replicated latent
// projections, 33.0% with the measured GEMM tables of 2026-12-06: little
// more than the 30% the fit must reach), so the fit also starts from a
// calibration file that is wrong on purpose — expert reads at the full
// measured bandwidth and a 1 ms host step, a file from a faster host — and
// must recover from it: that start misses by 35% or more whatever the
// global model becomes.
func TestCalibratePublishedCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("fits against simulated replays (seconds)")
	}
	dep := gpustackCluster(t)
	train := publishedResults(t, "gpustack-dsr1-h200-vllm-tp8-random-4k", "gpustack-dsr1-h200-vllm-tp8-random-2k", "gpustack-dsr1-h200-vllm-tp8-sharegpt-c4")
	held := publishedResults(t, "gpustack-dsr1-h200-vllm-tp8-random-32k")
	global, err := Compare(dep, held, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wrong, err := calfile.Parse([]byte("schema: vlaunch/calibration/v1\nconstants:\n  expert_hbm: 1.0\n  step_overhead_s: 0.001\n"))
	if err != nil {
		t.Fatal(err)
	}
	perturbed := *dep
	perturbed.Calibration = resolve.Calibration{File: wrong, Source: "wrong.yaml"}
	for _, start := range []struct {
		name string
		dep  *resolve.Deployment
	}{{"the global constants", dep}, {"a wrong calibration file", &perturbed}} {
		rep, err := Calibrate(start.dep, train, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Targets) != 9 {
			t.Fatalf("%s: %d fitted values, want throughput, TPOT and TTFT of 3 results", start.name, len(rep.Targets))
		}
		for _, v := range rep.Targets {
			if e := math.Abs(v.After/v.Measured - 1); !v.Fitted || e > 0.30 {
				t.Errorf("from %s: %s %s: %.4g measured, %.4g after the fit (%+.1f%%, fitted %v)", start.name, v.Result, v.Metric, v.Measured, v.After, 100*(v.After/v.Measured-1), v.Fitted)
			}
		}
		var moved []string
		for _, c := range rep.Constants {
			if c.Fitted {
				moved = append(moved, fmt.Sprintf("%s %.4g -> %.4g", c.Name, c.Before, c.After))
			}
		}
		t.Logf("from %s: worst %.1f%% -> %.1f%%; fitted %s", start.name, rep.WorstBeforePct, rep.WorstAfterPct, strings.Join(moved, ", "))
		if start.dep == &perturbed && rep.WorstBeforePct < 35 {
			t.Errorf("the wrong calibration file misses by %.1f%% only: the recovery shows nothing", rep.WorstBeforePct)
		}
		// The fit is checked on the published vLLM runs of H200 it was not
		// given: the three results are published rows, recognised as the
		// user's own and left out, and the rest (the 32K and 128-token
		// bursts, vLLM #28887's closed loops, ...) are compared.
		pc := rep.Published
		if pc == nil || strings.Join(pc.OwnRows, " ") != "gpustack-dsr1-h200-vllm-tp8-random-4k gpustack-dsr1-h200-vllm-tp8-random-2k gpustack-dsr1-h200-vllm-tp8-sharegpt-c4" ||
			pc.Figures < 5 || pc.None != "" {
			t.Fatalf("published check %+v", pc)
		}
		// A colocated deployment's check leaves published/pd.yaml's H200
		// runs out (UsePDRowsColocated off).
		if pc.PDMatch != "" || pc.PDRows != 0 || pc.PDFigures != 0 {
			t.Errorf("a colocated check compared P/D runs: %q, %d runs, %d figures", pc.PDMatch, pc.PDRows, pc.PDFigures)
		}
		t.Logf("published vLLM runs on h200: %d runs, %d figures, median |error| %.1f%% global, %.1f%% fitted (warning: %q)", pc.Rows, pc.Figures, pc.MedianBeforePct, pc.MedianAfterPct, pc.Warning)

		file := rep.File(calfile.Provenance{Created: "2026-12-02T00:00:00Z", Spec: "testdata/gpustack-h200.yaml"})
		data, err := file.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := calfile.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		calibrated := *dep
		calibrated.Calibration = resolve.Calibration{File: parsed, Source: "calibration.yaml"}
		after, err := Compare(&calibrated, held, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("held-out 32K burst: worst error %.1f%% with the global constants, %.1f%% calibrated from %s", global.WorstBeforePct, after.WorstBeforePct, start.name)
		// The global constants fit this burst within ±30% since the refit
		// of 2026-12-03 (24.5%; 29.6% with the GEMM tables): three runs do
		// not teach the cluster's constants anything the global ones miss
		// on a burst of far longer prompts. What calibration must not do
		// is make a result it was not fitted to worse by more than noise:
		// at most 2 points above the global constants' error, and within
		// 35%. (With the GEMM tables the fit from the global constants
		// moved six constants, measured_hbm and step_overhead_s along
		// slivers of their effect the chosen ones did not have, and reached
		// 34.3%: fitter's identifiableShare now refuses such near twins.)
		// Since the measured front-end constants (the prompt's
		// tokenization, vLLM 0.11.0's chat-template parse) became
		// calibration constants on 2026-12-06, a fit to the last point
		// moved five, two of them those (tokenization 1.1 -> 6.45-7.7 us a
		// token, the parse 14 -> 25 ms), and reached 32.0% (35.6% with the
		// host split of session 31): worse on a burst of 8x longer prompts.
		// The fit now stops at its tolerance (fitTolerance, 0.15): it moves
		// expert_hbm and the parse, leaves the tokenization at its
		// measurement, and the burst is 30.0% off from either start, 0.4
		// points above the global constants. The bound is back to 2 points.
		if after.WorstBeforePct > global.WorstBeforePct+2 || after.WorstBeforePct > 35 {
			t.Errorf("held-out result, calibrated from %s: worst error %.1f%% vs %.1f%% global; want it within 2 points of the global constants' and within 35%%", start.name, after.WorstBeforePct, global.WorstBeforePct)
		}
	}
}
