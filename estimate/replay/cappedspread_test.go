package replay

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestCappedBounds: the uniform range cappedMeanSpread draws from keeps the
// published mean and never passes the nominal cap nor falls below the
// client's floor (r·L).
func TestCappedBounds(t *testing.T) {
	for _, c := range []struct{ m, l, r float64 }{
		{610.1, 1000, 0}, {421, 1000, 0}, {4194.1, 8000, 0}, {4445.2, 8000, 0}, {499.7, 1000, 0}, {900, 1000, 0.8}, {810, 1000, 0.8},
	} {
		b, ok := cappedBounds(c.m, c.l, c.r)
		if !ok {
			t.Fatalf("m %.1f of %.0f (r %.1f): no range", c.m, c.l, c.r)
		}
		lo, hi := b[0]*c.m, b[1]*c.m
		if math.Abs((lo+hi)/2-c.m) > 1e-9 {
			t.Errorf("m %.1f of %.0f (r %.1f): range [%.1f, %.1f] has mean %.1f", c.m, c.l, c.r, lo, hi, (lo+hi)/2)
		}
		if hi > c.l+1e-9 || lo < c.r*c.l-1e-9 {
			t.Errorf("m %.1f of %.0f (r %.1f): range [%.1f, %.1f] outside [%.0f, %.0f]", c.m, c.l, c.r, lo, hi, c.r*c.l, c.l)
		}
	}
	// A mean outside the client's range contradicts the draw: no spread.
	for _, c := range []struct{ m, l, r float64 }{{700, 1000, 0.8}, {1000, 1000, 0}, {1200, 1000, 0}, {0, 1000, 0}} {
		if _, ok := cappedBounds(c.m, c.l, c.r); ok {
			t.Errorf("m %.0f of %.0f (r %.1f): a range, want none", c.m, c.l, c.r)
		}
	}
}

// TestCappedMeanSpreadRows: only rows whose client draws lengths below the
// nominal ones (SGLang's bench_serving) and that publish both means get the
// spread; vLLM's bench serve rows and rows without means keep their rule.
func TestCappedMeanSpreadRows(t *testing.T) {
	n := 0
	for _, r := range targetableRows(t) {
		_, ok := cappedMeanSpread(r)
		isCB := r.Workload.Client == "sglang-bench-serving" && r.Workload.InputTokensMean.Positive()
		if ok != isCB {
			t.Errorf("%s (client %q): capped spread %v", r.ID, r.Workload.Client, ok)
		}
		if ok {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no row takes the capped spread")
	}
}

// TestSpreadPrefillsOnePrompt: SGLang's cookbook Qwen3-235B run at 100
// sessions (prefill-first, eager prefill steps) with its client's spread of
// lengths takes nearly every prompt in a prefill step of its own, the
// decodes standing still for each (the published TPOT 32.9 ms against a
// median ITL of 23.5 ms); at the mean lengths the sessions ran in lock-step
// and shared prefill steps, ~10 prompts a step.
func TestSpreadPrefillsOnePrompt(t *testing.T) {
	defer func(v bool) { UseCappedMeanSpread = v }(UseCappedMeanSpread)
	for _, r := range targetableRows(t) {
		if r.ID != "sglcb-qwen3-235b-b200-sglang-tp8-1k1k-c100" {
			continue
		}
		perStep := map[bool]float64{}
		tpot := map[bool]float64{}
		for _, on := range []bool{false, true} {
			UseCappedMeanSpread = on
			var steps, tok float64
			o, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, stepHook: func(l []perf.RankLoad, _ float64) {
				if l[0].PrefillTokens > 0 {
					steps++
					tok += l[0].PrefillTokens
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			perStep[on] = tok / max(1, steps) / r.Workload.InputTokensMean.V
			tpot[on] = o.TPOT.Mean
		}
		if perStep[true] >= 2 || perStep[false] < 4 {
			t.Errorf("prompts a prefill step: %.1f with the spread (want < 2), %.1f at the means (want ≥ 4)", perStep[true], perStep[false])
		}
		if tpot[true] <= tpot[false] {
			t.Errorf("TPOT %.2f ms with the spread, %.2f at the means: the stalls should lengthen it", 1e3*tpot[true], 1e3*tpot[false])
		}
		return
	}
	t.Fatal("row sglcb-qwen3-235b-b200-sglang-tp8-1k1k-c100 not found")
}
