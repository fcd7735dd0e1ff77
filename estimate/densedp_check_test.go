package estimate

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// denseDPSpec is the dense-DP test deployment: no example in examples/ has
// a dense model with DP > 1.
const denseDPSpec = "testdata/llama-3.1-8b-dp4-4xh100.yaml"

// denseDPInput resolves denseDPSpec at the given concurrency ("" keeps the
// spec's 256).
func denseDPInput(tb testing.TB, concurrency string) input.Input {
	tb.Helper()
	y, err := os.ReadFile(denseDPSpec)
	if err != nil {
		tb.Fatal(err)
	}
	s := string(y)
	if concurrency != "" {
		s = strings.Replace(s, "concurrency: 256", "concurrency: "+concurrency, 1)
	}
	return testinput.FromYAML(tb, denseDPSpec, s)
}

// TestDenseDPCheck: check of a dense model with DP 4 (Llama-3.1-8B, four
// independent engines on 4 H100s, internal LB with the bundle's 4 API
// servers) simulates all four ranks, each on its own clock
// (sim.IndependentRanks, as the calibration replay runs them), through
// vLLM's balancer; before (sim.UseIndependentDP off) it simulated one rank
// with a quarter of the sessions and no balancer. Both keep 64 sessions a
// rank on average and the same per-rank step model, so throughput and
// TPOT stay within 3% (measured at 256 sessions: 16,480 → 16,516 tok/s,
// TPOT 15.4 ms both; at 1,024: 25,729 → 25,593 tok/s, 39.8 ms both); the
// balancer's stale views leave requests waiting on ranks that look free
// (mean waiting 0.0 → 0.3 and 0.0 → 1.1) and move the TTFT tail (p99
// 126 → 103 ms and 188 → 165 ms). Four ranks cost four times the
// rank-steps of one for the same requests, and independent ranks' steps
// are not coalesced (sim_steady.go), so the same work budget
// (sim.StepBudget) measures fewer: 25 → 10 replications at 256 sessions,
// 11 → 4 at 1,024 (25,002 → 10,001 and 11,003 → 7,897 requests).
func TestDenseDPCheck(t *testing.T) {
	defer func(v bool) { sim.UseIndependentDP = v }(sim.UseIndependentDP)
	for _, conc := range []string{"256", "1024"} {
		var res [2]sim.Result
		for i, on := range []bool{false, true} {
			sim.UseIndependentDP = on
			in := denseDPInput(t, conc)
			r := Check(&in)
			r.AddPerformance(&in, PerfOptions{Seed: 1})
			if r.Performance == nil || len(r.Performance.Simulations) == 0 {
				t.Fatal("no simulation")
			}
			res[i] = r.Performance.Simulations[0].Result
			if r.Performance.IndependentRanks != on {
				t.Errorf("performance section: independent ranks %v, want %v (the report's heading and note)", r.Performance.IndependentRanks, on)
			}
			cfg := sim.Config{DP: in.Layout.DP}
			slo.ApplyEngine(&in, r.Performance.Constants, &cfg)
			if cfg.DPLB != (sim.DPLB{Clients: 4, IntervalS: sim.DPLBPublishIntervalS}) {
				t.Errorf("balancer %+v, want internal LB over 4 API servers", cfg.DPLB)
			}
			s := res[i]
			t.Logf("%s sessions, independent ranks %v: %.0f tok/s, TPOT %.1f ms, TTFT mean %.1f p50 %.1f p99 %.1f ms, waiting %.1f; %d replications, %d requests, work %d",
				conc, on, s.OutputTokPerS, s.TPOT.Mean*1e3, s.TTFT.Mean*1e3, s.TTFT.P50*1e3, s.TTFT.P99*1e3, s.MeanWaiting, s.Replications, s.Requests, s.Work)
		}
		before, after := res[0], res[1]
		if d := after.OutputTokPerS/before.OutputTokPerS - 1; d < -0.03 || d > 0.03 {
			t.Errorf("%s sessions: throughput %.0f → %.0f tok/s, want within 3%%", conc, before.OutputTokPerS, after.OutputTokPerS)
		}
		if d := after.TPOT.Mean/before.TPOT.Mean - 1; d < -0.03 || d > 0.03 {
			t.Errorf("%s sessions: TPOT %.4f → %.4f s, want within 3%%", conc, before.TPOT.Mean, after.TPOT.Mean)
		}
		if !(after.MeanWaiting > before.MeanWaiting+0.1) {
			t.Errorf("%s sessions: mean waiting %.2f → %.2f, want the balancer's stale views to leave requests waiting", conc, before.MeanWaiting, after.MeanWaiting)
		}
	}
}

// BenchmarkCheckDenseDP is `vlaunch check` of the dense DP 4 deployment
// after resolution (every rank simulated, sim.IndependentRanks).
func BenchmarkCheckDenseDP(b *testing.B) {
	in := denseDPInput(b, "")
	for b.Loop() {
		r := Check(&in)
		r.AddPerformance(&in, PerfOptions{Seed: 1})
		if len(r.SLO) == 0 {
			b.Fatal("no verdicts")
		}
	}
}
