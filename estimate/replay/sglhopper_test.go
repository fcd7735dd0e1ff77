package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// sglHopper runs TestSGLHopperTTFT, an analysis (issue #28, task
// sglhopper) that prints the Hopper SGLang rows which side with the fitted
// eager-launch constant, decomposed at both values; skipped by default:
//
//	go test ./estimate/replay -run TestSGLHopperTTFT -sglhopper -v
var sglHopper = flag.Bool("sglhopper", false, "print the Hopper SGLang rows' TTFT decomposed at SGLangEagerPerLayerS 409.3 and 896.4 µs (analysis)")

// sglHopperPrefixes are the three Hopper row groups that side with 896.4 µs
// (estimate/perf/sglangeager.go).
var sglHopperPrefixes = []string{"p4-c", "tanjunchen-sglang-tp8-128-c", "sglcb-step35-flash-h200-sglang-tp4ep4-1k1k-c"}

// TestSGLHopperTTFT prints, for every row of sglHopperPrefixes and each of
// the two constants (set on a copy of perf.DefaultEfficiency, never in
// code): the published mean TTFT, the replay's mean and its parts (front
// end, engine queue, prefill), the one-prompt prefill step (launch, GPU,
// host), and the published − replayed difference (the excess a per-prefill
// host term would have to carry at 409.3 µs).
func TestSGLHopperTTFT(t *testing.T) {
	if !*sglHopper {
		t.Skip("analysis: run with -sglhopper")
	}
	ms := func(s float64) float64 { return 1e3 * s }
	var b strings.Builder
	b.WriteString("| row | pub TTFT mean / P99, TPOT | µs/layer | replay TTFT mean / P99, TPOT | front | queue | prefill | 1-prompt step: total / launch / GPU / host | pub − replay | steady pub / replay |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, prefix := range sglHopperPrefixes {
		for _, x := range replayRows(t, prefix) {
			r := x.Row
			in, _ := lengths(r.Workload)
			for _, c := range []float64{perf.CitedSGLangEagerPerLayerS, 896.4e-6} {
				eff := perf.DefaultEfficiency
				eff.SGLangEagerPerLayerS = c
				o, sm, _, err := runRow(r, eff, Options{Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				n := float64(in)
				st := sm.StepUniform(perf.RankLoad{PrefillTokens: n, PrefillPairs: n * (n + 1) / 2, PrefillSeqs: 1})
				s0 := sm.S
				s0.Eff.SGLangEagerPerLayerS = 0
				gpu := perf.NewStepModel(s0).StepUniform(perf.RankLoad{PrefillTokens: n, PrefillPairs: n * (n + 1) / 2, PrefillSeqs: 1})
				var front, queue, pre float64
				if o.Sim != nil {
					p := o.Sim.TTFTParts
					front, queue, pre = p.FrontendS, p.QueueS, p.PrefillS
				}
				fmt.Fprintf(&b, "| %s | %.1f / %s, %.1f | %.1f | %.1f / %.1f, %.1f | %.1f | %.1f | %.1f | %.1f / %.1f / %.1f / %.1f (eager %v) | %+.1f | %s |\n",
					r.ID, r.Figures.TTFTMs.Mean.V, pubOrDash(r.Figures.TTFTMs.P99), r.Figures.TPOTMs.Mean.V, 1e6*c, ms(o.TTFT.Mean), ms(o.TTFT.P99), ms(o.TPOT.Mean), ms(front), ms(queue), ms(pre),
					ms(st.TotalS), ms(st.LaunchS), ms(gpu.TotalS-gpu.HostS), ms(st.HostS), sm.S.PrefillEager,
					r.Figures.TTFTMs.Mean.V-ms(o.TTFT.Mean), steady(r.ID, r.Figures.TTFTMs.Mean.V, r.Figures.TTFTMs.P99.V, ms(o.TTFT.Mean), ms(o.TTFT.P99), r.Load.NumPrompts.Int(), r.Load.Concurrency.Int()))
			}
		}
	}
	t.Logf("Hopper SGLang TTFT (ms) at the cited and the fitted eager constant:\n%s", b.String())
}

// steady is a closed loop's mean TTFT without its first wave, read as c
// requests at the P99, (mean·N − c·P99)/(N − c), published and replayed
// (inferencex-870's rows only, "–" elsewhere); crude for the replay, whose P99 may
// hold more than its first wave.
func steady(id string, pubMean, pubP99, simMean, simP99 float64, n, c int) string {
	if !strings.HasPrefix(id, "p4-") || n <= c {
		return "–"
	}
	f := func(mean, p99 float64) float64 { return (mean*float64(n) - float64(c)*p99) / float64(n-c) }
	return fmt.Sprintf("%.0f / %.0f", f(pubMean, pubP99), f(simMean, simP99))
}

// TestSGLHopperPublishedShape asserts what the three Hopper row groups'
// published figures say on their own (no model), the arithmetic the
// sglhopper reading rests on:
//
//   - inferencex-870 (SGLang 0.5.7, H200 TP8, 1K/1K, N = 10 × c prompts):
//     with P99 interpolated over N requests (x[⌊0.99(N−1)⌋] and the next),
//     a P99 of ≈2 s against a mean of 0.33–0.43 s needs at least two
//     requests near it (one alone would have to take > 2× the P99); all c sessions start together at t=0, so reading
//     the whole first wave at ≈P99 leaves a steady-state mean of
//     (mean·N − c·P99)/(N − c) = 148, 157, 180, 166 ms at c8–c64: flat in
//     concurrency, about 2× the replay's one-prompt prefill step at 409.3 µs
//     (83.8 ms) and below it at 896.4 µs (182.2 ms) plus the closed loop's
//     wait. Whether the first wave is slow is an inference (per-request
//     TTFTs are not published).
//   - sglang-cookbook-step35-h200 c1: 10 prompts, median 80.93 ms, mean
//     107.53, P99 269.52: one request (≥ 250 ms) carries the mean's excess
//     over the median; the other nine average ≤ 92 ms.
//   - The decode steps of all three are slower than one GPU's work at
//     batch 1 would make them: tanjunchen c1 TPOT 42.0 ms, Step-3.5-Flash
//     c1 8.12 ms (replay 15.5 and 5.5 ms, TestSGLHopperTTFT).
func TestSGLHopperPublishedShape(t *testing.T) {
	byID := func(id string) (mean, p99 float64, n, c int) {
		for _, r := range targetableRows(t) {
			if r.ID == id {
				return r.Figures.TTFTMs.Mean.V, r.Figures.TTFTMs.P99.V, r.Load.NumPrompts.Int(), r.Load.Concurrency.Int()
			}
		}
		t.Fatalf("row %s not found", id)
		return
	}
	want := map[string][2]float64{"p4-c8": {145, 150}, "p4-c16": {154, 160}, "p4-c32": {177, 183}, "p4-c64": {163, 168}}
	for _, id := range []string{"p4-c8", "p4-c16", "p4-c32", "p4-c64"} {
		mean, p99, n, c := byID(id)
		if n != 10*c {
			t.Fatalf("%s: %d prompts at concurrency %d, want 10×", id, n, c)
		}
		// numpy's P99 is x[k] + f·(x[k+1] − x[k]), k = ⌊0.99(N−1)⌋, so the
		// N−1−k largest requests are at or above it; with one (N = 80), a
		// single slow request X over the others' mean m gives m + f·(X − m)
		// and would have to take X = m + (P99 − m)/f, over 2× the P99 — so
		// at least two requests sit near the P99 at every concurrency.
		pos := 0.99 * float64(n-1)
		k := int(pos)
		f := pos - float64(k)
		atLeast := n - 1 - k
		if atLeast == 1 {
			m := (mean*float64(n) - p99) / float64(n-1)
			if x := m + (p99-m)/f; x < 2*p99 {
				t.Errorf("%s: a single slow request of %.0f ms reproduces the P99", id, x)
			}
			atLeast = 2
		}
		steady := (mean*float64(n) - float64(c)*p99) / float64(n-c)
		if w := want[id]; steady < w[0] || steady > w[1] {
			t.Errorf("%s: steady-state mean without the first wave %.1f ms, want [%.0f, %.0f]", id, steady, w[0], w[1])
		}
		t.Logf("%s: mean %.1f, P99 %.1f, N %d: ≥ %d requests near the P99; steady mean without a first wave at P99 %.1f ms", id, mean, p99, n, atLeast, steady)
	}
	for _, r := range targetableRows(t) {
		if r.ID != "sglcb-step35-flash-h200-sglang-tp4ep4-1k1k-c1" {
			continue
		}
		tt := r.Figures.TTFTMs
		n := float64(r.Load.NumPrompts.Int())
		// The largest request is at least the P99 (interpolated below it).
		restMax := (tt.Mean.V*n - tt.P99.V) / (n - 1)
		if tt.Median.V > 85 || restMax > 92 {
			t.Errorf("Step-3.5-Flash c1: median %.1f, the other nine's mean ≤ %.1f ms", tt.Median.V, restMax)
		}
		t.Logf("Step-3.5-Flash c1: median %.1f, mean %.1f, P99 %.1f; the other nine ≤ %.1f ms", tt.Median.V, tt.Mean.V, tt.P99.V, restMax)
	}
}
