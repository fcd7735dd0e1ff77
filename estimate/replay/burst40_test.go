package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// burstTrace runs TestDenseBurstTrace, an analysis (issue #28, the dense
// burst regimes) that prints and asserts nothing, skipped by default:
//
//	go test ./estimate/replay -run TestDenseBurstTrace -bursttrace -v
var burstTrace = flag.Bool("bursttrace", false, "print every dense burst row's simulated steps phase by phase beside what its published ITL and token totals imply (analysis)")

// TestDenseBurstTrace prints, for every dense row under a burst (all
// prompts sent at once), what the simulation does step by step — in ten
// phases of the evaluated steps: steps, prompts admitted (chunks begun),
// prompt tokens a step, the running decodes, mean step — and what the
// published figures imply of vLLM's steps: the client's ITL median is a
// decode-only step while fewer than half of a request's intervals follow
// a prompt step, its P99 the largest (full-budget) mixed step, and the
// prompt tokens over the budget the number of those steps; the implied
// mixed step M solves ITL mean = f·M + (1−f)·D with f the share of mixed
// intervals that duration = n_mixed·M + n_decode·D gives.
//
// Read on 2026-12-07 (branch burst40). The simulated schedule is vLLM
// 0.11's: the H100 2K/100 burst runs ~130 full-budget prompt steps in the
// simulation as the published totals imply (998k prompt tokens at ~7.7k a
// step), KV-bound at ~120 running (13 preemptions, whose recompute is <3%
// of the prompt work). What differs is what a step costs: the implied
// mixed step of the H100 2K/4K/32K bursts is ≈676/667/877 ms against
// 314/336/663 simulated, the decode-only step (ITL median) 46/44/43 ms
// against 30/28/24; on the A100 (budget 2048) the mixed step (ITL median)
// is 334/369/448 ms against 244/262/434. The 128/4 bursts' ITL (median 581
// ms on H100, 238 on A100, for ~13 and ~35 ms engine steps) is no step at
// all: the streamed tokens wait behind the API server's ingest of the
// burst (sim.Frontend.Rounds, off through perf.UseIngestRounds).
//
// What the decode-only steps say of the GPU: in the H100 2K/4K/32K bursts
// each reads the weights (29.5 GB) and a full KV pool (~41 GB) in 43–46 ms,
// 1.55–1.65 TB/s; the same lab's Qwen3-32B H100 page (same engines, same
// commit of the docs, not a row) reads ~73 GB in 43–45 ms (1.6–1.9 TB/s),
// while its Qwen3-8B latency page ("A single NVIDIA H100 SXM GPU") streams
// 15.2 GB a token in 7.2–7.4 ms at batch ≤ 4 (2.05–2.1 TB/s). An H100 SXM
// has 3.35 TB/s, an H100 PCIe 2.0 (gpus.md S14, S18): the throughput pages
// behave like the PCIe part. Replayed as h100-pcie (a local edit of the
// rows, not committed: the page says SXM) the source has 17 of 24 figures
// within ±30% (5 as SXM), 20 of 24 with perf.UseIngestRounds on.
func TestDenseBurstTrace(t *testing.T) {
	if !*burstTrace {
		t.Skip("analysis: run with -bursttrace")
	}
	var b strings.Builder
	for _, r := range targetableRows(t) {
		if ClassOf(r) != band.Dense || r.Load.Kind != published.LoadBurst {
			continue
		}
		var steps []traceStep
		hook := func(l []perf.RankLoad, d float64) {
			steps = append(steps, traceStep{d: d, dec: l[0].DecodeSeqs, pre: l[0].PrefillTokens, chunks: l[0].PrefillSeqs})
		}
		o, _, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1, stepHook: hook})
		if err != nil || o.Sim == nil {
			fmt.Fprintf(&b, "%s: not simulated (%v)\n", r.ID, err)
			continue
		}
		s := o.Sim
		in, out := lengths(r.Workload)
		fmt.Fprintf(&b, "%s (%s %s, in/out %d/%d, %d prompts): budget %d, max_num_seqs %d\n", r.ID, e.name, e.release.Version,
			in, out, int(r.Load.BurstRequests.V), e.batchTok, e.maxSeqs)
		fmt.Fprintf(&b, "  sim: %.1f s, %d steps (%d evaluated), mean running %.0f, waiting %.0f, preemptions %d; out %.0f tok/s; TTFT mean/median/P99 %.1f/%.1f/%.1f s; TPOT %.1f/%.1f/%.1f ms\n",
			s.SimulatedS, s.Steps, len(steps), s.MeanRunning, s.MeanWaiting, s.Preemptions, s.OutputTokPerS,
			s.TTFT.Mean, s.TTFT.P50, s.TTFT.P99, 1e3*s.TPOT.Mean, 1e3*s.TPOT.P50, 1e3*s.TPOT.P99)
		if f := r.Figures; f.TPOTMs.Mean.Known && f.TTFTMs.Mean.Known {
			fmt.Fprintf(&b, "  published: TTFT %.1f/%.1f/%.1f s; TPOT %.1f/%.1f/%.1f ms\n", f.TTFTMs.Mean.V/1e3, f.TTFTMs.Median.V/1e3, f.TTFTMs.P99.V/1e3,
				f.TPOTMs.Mean.V, f.TPOTMs.Median.V, f.TPOTMs.P99.V)
		}
		b.WriteString(tracePhases(steps))
		fmt.Fprintf(&b, "  sim steps: %s\n", itlLike(stepRecs(steps)))
		fmt.Fprintf(&b, "  published: %s\n", impliedSteps(r, in, e.batchTok))
	}
	t.Logf("dense bursts step by step:\n%s", b.String())
}

// traceStep is one evaluated step of the simulation.
type traceStep struct{ d, dec, pre, chunks float64 }

// stepRecs converts the trace for itlLike.
func stepRecs(ts []traceStep) []stepRec {
	out := make([]stepRec, len(ts))
	for i, s := range ts {
		out[i] = stepRec{d: s.d, dec: s.dec, pre: s.pre}
	}
	return out
}

// tracePhases prints the evaluated steps in ten consecutive phases.
func tracePhases(ts []traceStep) string {
	var b strings.Builder
	const n = 10
	var t0 float64
	for p := range n {
		lo, hi := p*len(ts)/n, (p+1)*len(ts)/n
		if hi <= lo {
			continue
		}
		var d, dec, pre, chunks, withPre float64
		for _, s := range ts[lo:hi] {
			d += s.d
			dec += s.dec
			pre += s.pre
			chunks += s.chunks
			if s.pre > 0 {
				withPre++
			}
		}
		k := float64(hi - lo)
		fmt.Fprintf(&b, "  phase %d at %.1f s: %d steps, %.0f with prompt tokens (%.0f chunks, %.0f prompt tok/step), %.0f decodes/step, step %.1f ms\n",
			p, t0, hi-lo, withPre, chunks, pre/k, dec/k, 1e3*d/k)
		t0 += d
	}
	return b.String()
}

// impliedSteps is what a burst row's published figures say of its steps:
// D from the ITL median, the number of full-budget prompt steps from the
// prompt tokens, and M from duration and ITL mean.
func impliedSteps(r published.Row, in, budget int) string {
	f := r.Figures
	it := f.ITLMs
	if !it.Median.Known || !it.Mean.Known || !f.DurationS.Known {
		return "no ITL or duration"
	}
	prompts := float64(in) * r.Load.BurstRequests.V
	if f.CompletedRequests.Known {
		prompts = float64(in) * f.CompletedRequests.V
	}
	nMixed := prompts / float64(budget)
	if it.P99.Known && it.Median.V >= 0.5*it.P99.V {
		// Most intervals follow a prompt step (the budget is smaller than
		// the prompts waiting): the median is the mixed step, and a mean
		// below it the decode-only steps between.
		return fmt.Sprintf("ITL median %.0f ms, mean %.0f, P99 %.0f: mostly mixed steps, M ≈ %.0f ms (≈%.0f prompt tok/s over %.0f s)",
			it.Median.V, it.Mean.V, it.P99.V, it.Median.V, prompts/f.DurationS.V, f.DurationS.V)
	}
	d := it.Median.V / 1e3
	// duration ≈ nMixed·M + nDec·D and mean step ≈ ITL mean, so the step
	// count is duration / ITL mean and M follows.
	steps := f.DurationS.V / (it.Mean.V / 1e3)
	m := (f.DurationS.V - (steps-nMixed)*d) / nMixed
	p99 := "?"
	if it.P99.Known {
		p99 = fmt.Sprintf("%.0f", it.P99.V)
	}
	return fmt.Sprintf("ITL median %.0f ms (decode-only step D), mean %.0f, P99 %s; %.0f s, ≈%.0f steps of which ≈%.0f full-budget prompt steps (%.0f prompt tokens / %d): implied mixed step M ≈ %.0f ms (%.0f prompt tok/s)",
		it.Median.V, it.Mean.V, p99, f.DurationS.V, steps, nMixed, prompts, budget, 1e3*m, float64(budget)/m)
}
