package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// largeBatch runs TestLargeBatchTerms, an analysis (issue #28,
// "largebatch") that prints and asserts nothing, skipped by default:
// go test ./estimate/replay -run TestLargeBatchTerms -largebatch [-largemarlin=false] -v
// (the three switches default to their package values: on since session 32)
var (
	largeBatch  = flag.Bool("largebatch", false, "print the pegainfer H20 rows' step terms per rank batch (analysis)")
	largeMarlin = flag.Bool("largemarlin", perf.UseMarlinBlocks, "with -largebatch: perf.UseMarlinBlocks (analysis)")
	largePad    = flag.Bool("largepad", perf.UseDPGraphPadding, "with -largebatch: perf.UseDPGraphPadding (analysis)")
	largeLB     = flag.Bool("largelb", sim.UseDPLB, "with -largebatch: sim.UseDPLB (analysis)")
)

// TestLargeBatchTerms prints the replay of the pegainfer-vllm-h20-baseline
// rows (Kimi-K2.5 INT4, DP8 + EP8 on 8 × H20-3e) next to the published
// figures, and for the 64-session row the lock-step decode step's terms at
// 1–64 sequences a rank (every rank alike, 64 tokens of context).
func TestLargeBatchTerms(t *testing.T) {
	if !*largeBatch {
		t.Skip("analysis: run with -largebatch")
	}
	defer func(o, p, l bool) { perf.UseMarlinBlocks, perf.UseDPGraphPadding, sim.UseDPLB = o, p, l }(perf.UseMarlinBlocks, perf.UseDPGraphPadding, sim.UseDPLB)
	perf.UseMarlinBlocks, perf.UseDPGraphPadding, sim.UseDPLB = *largeMarlin, *largePad, *largeLB
	var b strings.Builder
	fmt.Fprintf(&b, "UseMarlinBlocks %v UseDPGraphPadding %v UseDPLB %v\n", perf.UseMarlinBlocks, perf.UseDPGraphPadding, sim.UseDPLB)
	for _, x := range replayRows(t, "pegainfer-vllm019-h20-kimik25-dp8ep8-1in128out-c") {
		r, o, sm, e := x.Row, x.Out, x.Step, x.Eng
		fmt.Fprintf(&b, "%s: tok/s %.0f (pub %.1f) TPOT p50 %.1f ms (pub %.1f) TTFT p99 %.1f (pub %.1f) marlin %v api servers %d\n", r.ID, o.Sim.OutputTokPerS, r.Figures.OutputTokPerS.V,
			1e3*o.TPOT.P50, r.Figures.TPOTMs.Median.V, 1e3*o.TTFT.P99, r.Figures.TTFTMs.P99.V, sm.S.MarlinMoE, e.apiServers)
		p := o.Sim.TTFTParts
		fmt.Fprintf(&b, "  TTFT mean %.1f ms = front end %.1f + queue %.1f + prefill %.1f (pub median %.1f)\n", 1e3*o.TTFT.Mean, 1e3*p.FrontendS, 1e3*p.QueueS, 1e3*p.PrefillS, r.Figures.TTFTMs.Median.V)
		if r.ID != "pegainfer-vllm019-h20-kimik25-dp8ep8-1in128out-c64" {
			continue
		}
		for _, per := range []float64{1, 2, 4, 8, 9, 16, 24, 32, 40, 64} {
			loads := make([]perf.RankLoad, sm.S.DP)
			for i := range loads {
				loads[i] = perf.RankLoad{DecodeSeqs: per, DecodeCtx: per * 64}
			}
			st := sm.Step(loads)
			fmt.Fprintf(&b, "  per-rank %3.0f: step %.1f ms dense %.2f attn %.2f experts %.2f (c %.2f m %.2f) gaps %.2f (%.0f) a2a %.2f TP %.2f host %.2f launch %.2f\n",
				per, 1e3*st.TotalS, 1e3*st.DenseS, 1e3*st.AttentionS, 1e3*st.ExpertS, 1e3*st.ComputeS, 1e3*st.MemoryS, 1e3*st.KernelGapsS, st.Kernels, 1e3*st.A2AS, 1e3*st.TPS, 1e3*st.OverheadS, 1e3*st.LaunchS)
		}
	}
	t.Log("\n" + b.String())
}
