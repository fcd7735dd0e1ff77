package calibrate

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestAskedDirection: the sign rule. A constant moves only against the
// derivative of the fitted runs' squared log errors (an efficiency up, or
// a cost down, when the runs are predicted too slow), not when the runs
// pull both ways in near balance, and a figure that does not exercise the
// constant's mechanism does not pull it.
func TestAskedDirection(t *testing.T) {
	// Anyscale's P/D runs (calibrate_pd.txtar) with the global constants:
	// output tok/s −21.9% and −18.5% (log errors), TPOT +24.9% and +24.6%,
	// TTFT median +5.6% and −9.1%, and the derivatives of each prediction
	// by the constant's log, measured at the start.
	errs := map[string][3]float64{"conc8.json": {-0.219, 0.249, 0.056}, "conc32.json": {-0.185, 0.246, -0.091}}
	runPulls := func(d8, d32 [3]float64) []pull {
		var out []pull
		for _, r := range []struct {
			name string
			d    [3]float64
		}{{"conc8.json", d8}, {"conc32.json", d32}} {
			for k, m := range []Metric{Throughput, TPOT, TTFT} {
				out = append(out, pull{run: r.name, metric: m, err: errs[r.name][k], deriv: r.d[k]})
			}
		}
		return out
	}
	tests := []struct {
		name  string
		phase phase
		pulls []pull
		dir   int
		why   string
	}{
		// multiproc_step_s, a host cost per step: more of it, slower
		// decode; both runs ask for less.
		{"a cost both too-slow runs ask down", bothPhases,
			runPulls([3]float64{-0.287, 0.321, 0.037}, [3]float64{-0.197, 0.223, 0.048}), -1, "ask for it lower"},
		// expert_hbm, an efficiency: more of it, faster decode.
		{"an efficiency both too-slow runs ask up", decodePhase,
			runPulls([3]float64{0.136, -0.157, -0.030}, [3]float64{0.265, -0.329, -0.016}), 1, "ask for it higher"},
		// expert_gemm: conc8's TTFT (too slow) and both throughputs ask
		// for it higher, conc32's TTFT (too fast, a prefill queue) for it
		// lower; the pulls nearly cancel, which let the minimax fit take
		// it down ×0.75 and put a 64-session run's TTFT at +377%.
		{"runs pulling both ways in near balance", bothPhases,
			runPulls([3]float64{0.040, 0.008, -0.227}, [3]float64{0.079, 0.015, -0.339}), 0, "both ways in near balance"},
		// A decode-only constant is not pulled by TTFT figures: a large
		// TTFT pull the other way (a closed loop's queue) is ignored.
		{"TTFT does not pull a decode constant", decodePhase,
			[]pull{{run: "a", metric: TPOT, err: 0.2, deriv: -0.3}, {run: "a", metric: TTFT, err: -0.5, deriv: -2}}, 1, "ask for it higher"},
		{"only TTFT figures: a decode constant is not fitted", decodePhase,
			[]pull{{run: "a", metric: TTFT, err: 0.3, deriv: -0.5}}, 0, "no fitted figure exercises its mechanism"},
		{"only TPOT figures: a prompt constant is not fitted", prefillPhase,
			[]pull{{run: "a", metric: TPOT, err: 0.3, deriv: 0.5}}, 0, "no fitted figure exercises its mechanism"},
		{"figures that do not depend on it", bothPhases,
			[]pull{{run: "a", metric: TPOT, err: 0.3, deriv: 0}, {run: "b", metric: TTFT, err: -0.2, deriv: 0.001}}, 0, "no fitted run's errors ask"},
		{"one run outweighs a weak opposite pull", bothPhases,
			[]pull{{run: "a", metric: TPOT, err: 0.3, deriv: 0.5}, {run: "b", metric: TPOT, err: -0.05, deriv: 0.5}}, -1, "outweighing b's"},
		{"a run within its figures' errors already", bothPhases,
			[]pull{{run: "a", metric: Throughput, err: 0.0005, deriv: 1}}, 0, "no fitted run's errors ask"},
	}
	for _, tc := range tests {
		v := askedDirection(tc.phase, tc.pulls)
		if v.dir != tc.dir || !strings.Contains(v.why, tc.why) {
			t.Errorf("%s: direction %d (%q), want %d (%q)", tc.name, v.dir, v.why, tc.dir, tc.why)
		}
	}
}

// TestPhases: every figure exercises the phase it measures, throughput
// both; a constant without an entry acts on both.
func TestPhases(t *testing.T) {
	if TTFT.phases() != prefillPhase || TPOT.phases() != decodePhase || Throughput.phases() != bothPhases {
		t.Errorf("figure phases %v %v %v", TTFT.phases(), TPOT.phases(), Throughput.phases())
	}
	if phaseOf("expert_hbm") != decodePhase || phaseOf("frontend_prompt_token_s") != prefillPhase || phaseOf("multiproc_step_s") != bothPhases {
		t.Error("constant phases")
	}
}

// TestLogDerivs: the central difference reads a power law's exponent, one
// side at a bound, and no derivative for a constant with no range.
func TestLogDerivs(t *testing.T) {
	model := func(x []float64) []float64 { return []float64{math.Pow(x[0], 2) * x[1], 1 / x[1]} }
	d := logDerivs([]float64{0.5, 1}, []float64{0.1, 0.5}, []float64{1, 1}, model)
	if math.Abs(d[0][0]-2) > 1e-9 || math.Abs(d[0][1]) > 1e-9 || math.Abs(d[1][0]-1) > 1e-9 || math.Abs(d[1][1]+1) > 1e-9 {
		t.Errorf("derivatives %v", d)
	}
	if d := logDerivs([]float64{1}, []float64{1}, []float64{1}, func(x []float64) []float64 { return x }); d[0] != nil {
		t.Errorf("a constant with no range has derivative %v", d[0])
	}
}

// TestWorsenedSibling: a figure of a published run of the deployment may
// not grow beyond the larger of its error before and the fit's tolerance
// by more than the published figures' precision; the largest growth is
// named; a figure the fitted constants cannot replay counts as worsened.
func TestWorsenedSibling(t *testing.T) {
	before := map[string]float64{"c64 ttft_ms.median": 0.026, "c64 ttft_ms.mean": 0.46, "c64 output_tok_per_s": 0.22}
	if f, _, _ := worsenedSibling(before, map[string]float64{"c64 ttft_ms.median": 0.15, "c64 ttft_ms.mean": 0.469, "c64 output_tok_per_s": 0.1}); f != "" {
		t.Errorf("growth within the fit's tolerance, or within 1%% above the error before, named %q", f)
	}
	if f, _, _ := worsenedSibling(before, map[string]float64{"c64 ttft_ms.median": 0.15, "c64 ttft_ms.mean": 0.48, "c64 output_tok_per_s": 0.1}); f != "c64 ttft_ms.mean" {
		t.Errorf("a figure already beyond the tolerance grew 2%%: named %q", f)
	}
	f, b, a := worsenedSibling(before, map[string]float64{"c64 ttft_ms.median": 0.35, "c64 ttft_ms.mean": 0.62, "c64 output_tok_per_s": 0.1})
	if f != "c64 ttft_ms.median" || b != 0.026 || a != 0.35 {
		t.Errorf("named %q %v → %v, want the TTFT median", f, b, a)
	}
	if f, _, _ := worsenedSibling(before, map[string]float64{"c64 ttft_ms.mean": 0.4, "c64 output_tok_per_s": 0.1}); f != "c64 ttft_ms.median" {
		t.Errorf("a figure lost from the replay: named %q", f)
	}
}

// TestSiblingsOf: the published runs of the user's own cluster are those
// of the source one of the results is a run of (the same load, shape and
// throughput), with the deployment's model and pools: Anyscale's 64-session
// run of the P/D example beside its 8 and 32-session results. The same
// load and shape measured 25% slower is another cluster: no sibling.
func TestSiblingsOf(t *testing.T) {
	d := pdExample(t)
	var ids []string
	for _, r := range siblingsOf(d, anyscaleResults()).pd {
		ids = append(ids, r.row.ID)
	}
	if !slices.Contains(ids, "anyscale-h100-pack-p1tp4-d1tp4-c64") {
		t.Errorf("siblings %v lack the 64-session run", ids)
	}
	for _, id := range ids {
		if !strings.HasPrefix(id, "anyscale-h100-pack-p1tp4-d1tp4-") || strings.HasSuffix(id, "-c8") || strings.HasSuffix(id, "-c32") {
			t.Errorf("sibling %s: not another load of the results' deployment", id)
		}
	}
	slow := anyscaleResults()
	for _, r := range slow {
		r.OutputTokPerS /= 1.25
	}
	if s := siblingsOf(d, slow); !s.empty() {
		t.Errorf("a slower cluster's results have siblings %d", len(s.pd))
	}
}
