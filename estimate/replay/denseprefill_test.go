package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// densePrefill runs TestDensePrefillTerms, an analysis (issue #28) that
// prints and asserts nothing, skipped by default:
// go test ./estimate/replay -run TestDensePrefillTerms -denseprefill -v
var densePrefill = flag.Bool("denseprefill", false, "print the dense closed-loop rows' idle prefill terms at 128..8192 tokens (analysis)")

// TestDensePrefillTerms prints, for one closed-loop row of each dense
// model and layout the scicom and GPUStack sources publish, the idle
// prefill of 128 to 8192 tokens as the step model costs it, term by term,
// under the row's engine token budget: the under-predicted dense TTFT's
// GPU side (issue #28).
func TestDensePrefillTerms(t *testing.T) {
	if !*densePrefill {
		t.Skip("analysis: run with -denseprefill")
	}
	want := []string{"scicom-qwen3-14b-h100-vllm-tp4dp2-128x128-c10-20260410", "scicom-qwen3-14b-h100-vllm-tp8dp1-128x128-c10-20260410",
		"scicom-llama31-70b-h100-vllm-tp4dp2-128x128-c10-20260413", "scicom-llama31-70b-h100-vllm-tp8dp1-128x128-c10-20260413",
		"gs-qwen3-8b-h100-vllm-tp1-sharegpt-c1", "gs-qwen3-14b-h100-vllm-tp1-random-2k", "gs-qwen3-14b-a100-vllm-tp1-random-2k"}
	var b strings.Builder
	b.WriteString("| row | budget | prompt | TTFT idle | GPU | compute | network | gaps | host | between | launch | binding |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range targetableRows(t) {
		found := false
		for _, w := range want {
			found = found || r.ID == w
		}
		if !found {
			continue
		}
		_, sm, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil || sm == nil {
			t.Logf("%s: %v", r.ID, err)
			continue
		}
		for _, n := range []int{128, 512, 1024, 2048, 4096, 8192} {
			p := sm.PrefillIdle(n, e.batchTok)
			ms := func(s float64) float64 { return s * 1e3 }
			fmt.Fprintf(&b, "| %s | %d | %d | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f | %s |\n", r.ID, e.batchTok, n,
				ms(p.TTFTS), ms(p.GPUS), ms(p.ComputeS), ms(p.NetworkS), ms(p.KernelGapsS), ms(p.HostS), ms(p.HostBetweenS), ms(p.LaunchS), p.Binding)
		}
	}
	t.Logf("idle prefill terms (ms):\n%s", b.String())
}

// TestDenseClosedLoopTrace prints the simulated steps (the step model's
// evaluations, a steady decode segment once) of the scicom Qwen3-14B TP8
// 4096/128 closed loop of 10 (analysis): how many prompts each prefill
// step carried beside how many decodes — the rolling wave the published
// per-request start times do not show (they send each wave within 32 ms).
func TestDenseClosedLoopTrace(t *testing.T) {
	if !*densePrefill {
		t.Skip("analysis: run with -denseprefill")
	}
	for _, r := range targetableRows(t) {
		if r.ID != "scicom-qwen3-14b-h100-vllm-tp8dp1-4096x128-c10-20260410" {
			continue
		}
		var b strings.Builder
		n, at := 0, 0.0
		hook := func(loads []perf.RankLoad, s float64) {
			n++
			at += s
			if n > 400 && n < 480 {
				for _, l := range loads {
					fmt.Fprintf(&b, "step %d t=%.0fms: %.0f prefill tokens in %.0f chunks beside %.0f decodes, %.1f ms\n", n, at*1e3, l.PrefillTokens, l.PrefillSeqs, l.DecodeSeqs, s*1e3)
				}
			}
		}
		o, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, stepHook: hook})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: TTFT mean %.1f ms, %d steps\n%s", r.ID, o.TTFT.Mean*1e3, n, b.String())
	}
}

// TestDenseClosedLoopWaves sets the scicom closed loops of 10 against a
// wave model: every session of an engine sends its next request at the
// same moment, the engine prefills the wave's prompts back to back in
// steps of its token budget (each step priced as the step model's idle
// prefill of that many tokens, no decodes beside), a prompt's TTFT is the
// end of the step holding its last token plus the front end the
// simulation charged, and the decodes of the wave's early prompts wait
// through the later steps (the stall a request's mean ITL shows above its
// median: (mean − median) × (output − 1)). Published, wave and simulated
// mean TTFT side by side — the simulation as committed, with
// perf.UseAsyncOverlap on, and with perf.UseIngestRounds on as well — and
// the stall and TPOT (analysis, docs/calibration-analysis.md "dense TTFT
// under-prediction — fixed-length closed loops lock into waves or trains").
func TestDenseClosedLoopWaves(t *testing.T) {
	if !*densePrefill {
		t.Skip("analysis: run with -denseprefill")
	}
	var b strings.Builder
	defer func(o, r bool) { perf.UseAsyncOverlap, perf.UseIngestRounds = o, r }(perf.UseAsyncOverlap, perf.UseIngestRounds)
	b.WriteString("| row | per engine | TTFT pub | wave | sim | sim, overlap on | overlap + rounds | stall pub | wave | TPOT pub | sim | sim, overlap on |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range targetableRows(t) {
		if !strings.HasPrefix(r.ID, "scicom-") || !strings.Contains(r.ID, "-c10-") {
			continue
		}
		perf.UseAsyncOverlap = true
		on, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil {
			t.Fatal(r.ID, err)
		}
		perf.UseIngestRounds = true
		rd, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil {
			t.Fatal(r.ID, err)
		}
		perf.UseAsyncOverlap, perf.UseIngestRounds = false, false
		o, sm, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil || o.Sim == nil {
			t.Fatal(r.ID, err)
		}
		in, out := lengths(r.Workload)
		n := r.Load.Concurrency.Int() / max(1, r.Layout.DP.Int())
		ttft, stall := waveOf(sm, n, in, e.batchTok)
		f := r.Figures
		pubStall := (f.ITLMs.Mean.V - f.ITLMs.Median.V) * float64(out-1)
		fe := o.Sim.TTFTParts.FrontendS * 1e3
		fmt.Fprintf(&b, "| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f |\n", r.ID, n, f.TTFTMs.Mean.V, ttft*1e3+fe, o.TTFT.Mean*1e3, on.TTFT.Mean*1e3, rd.TTFT.Mean*1e3,
			pubStall, stall*1e3, f.TPOTMs.Mean.V, o.TPOT.Mean*1e3, on.TPOT.Mean*1e3)
	}
	t.Logf("closed loops of 10, published against waves (ms):\n%s", b.String())
}

// waveOf is the wave model of TestDenseClosedLoopWaves (sim.WaveOf): n
// prompts of in tokens arriving together, prefilled in steps of budget
// tokens; it returns their mean TTFT (engine side) and the mean time a
// prompt's decodes wait through the wave's later steps.
func waveOf(sm *perf.StepModel, n, in, budget int) (ttft, stall float64) {
	w := sim.WaveOf(sm, n, in, budget, 0, 0)
	return w.MeanS, w.StallS
}

// TestDenseTP4DP2Steps prints the step the simulation runs for the
// scicom Llama-3.1-70B TP4 × DP2 1024/128 closed loop of 10 (analysis):
// the published prefill-bearing steps take 74 ms (ITL gaps over 4× the
// median), the idle prefill of 1024 tokens 60 ms in the step model.
func TestDenseTP4DP2Steps(t *testing.T) {
	if !*densePrefill {
		t.Skip("analysis: run with -denseprefill")
	}
	for _, r := range targetableRows(t) {
		if r.ID != "scicom-llama31-70b-h100-vllm-tp4dp2-1024x128-c10-20260413" {
			continue
		}
		var b strings.Builder
		n := 0
		hook := func(loads []perf.RankLoad, s float64) {
			n++
			pre := false
			for _, l := range loads {
				pre = pre || l.PrefillTokens > 0
			}
			if n > 300 && n < 2000 && pre && strings.Count(b.String(), "\n") < 30 {
				fmt.Fprintf(&b, "eval %d: %.1f ms:", n, s*1e3)
				for _, l := range loads {
					fmt.Fprintf(&b, " [%.0f prefill in %.0f, %.0f decodes]", l.PrefillTokens, l.PrefillSeqs, l.DecodeSeqs)
				}
				b.WriteString("\n")
			}
		}
		_, sm, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, stepHook: hook})
		if err != nil {
			t.Fatal(err)
		}
		one := sm.StepSeconds([]perf.RankLoad{{PrefillTokens: 1023, PrefillPairs: 1023 * 512, PrefillSeqs: 1, DecodeSeqs: 1, DecodeCtx: 1100}})
		two := sm.StepSeconds([]perf.RankLoad{{PrefillTokens: 1023, PrefillPairs: 1023 * 512, PrefillSeqs: 1, DecodeSeqs: 1, DecodeCtx: 1100}, {DecodeSeqs: 4, DecodeCtx: 4400}})
		t.Logf("%s: DP %d; one rank's 1023-token prefill beside a decode %.1f ms; the same beside the other rank's 4 decodes %.1f ms\n%s", r.ID, sm.S.DP, one*1e3, two*1e3, b.String())
	}
}
