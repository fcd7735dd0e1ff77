package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// v4GPU runs TestV4GPUTerms, an analysis (issue #28, DeepSeek-V4-Flash
// decode on 8 × H100) that prints and asserts nothing, skipped by default:
// go test ./estimate/replay -run TestV4GPUTerms -v4gpu -v
var v4GPU = flag.Bool("v4gpu", false, "print the held-out DeepSeek-V4-Flash rows' decode step terms (analysis)")

// v4Overlap and v4Straggler turn perf.UseAsyncOverlap and perf.
// UseEPStraggler on for TestV4GPUTerms (analysis).
var (
	v4Overlap   = flag.Bool("v4overlap", false, "with -v4gpu: perf.UseAsyncOverlap on (analysis)")
	v4Straggler = flag.Bool("v4straggler", false, "with -v4gpu: perf.UseEPStraggler on (analysis)")
)

// TestV4GPUTerms prints, for the six DeepSeek-V4-Flash rows of source
// tant2tls-blog-arch-h100, the decode step's terms (perf.DecodeParts) at
// the row's concurrency and mean decode context, next to the published
// TPOT p50 and output tok/s and the replay's, with the overlap switch as
// the package's perf.UseAsyncOverlap has it.
func TestV4GPUTerms(t *testing.T) {
	if !*v4GPU {
		t.Skip("analysis: run with -v4gpu")
	}
	defer func(o, s bool) { perf.UseAsyncOverlap, perf.UseEPStraggler = o, s }(perf.UseAsyncOverlap, perf.UseEPStraggler)
	perf.UseAsyncOverlap, perf.UseEPStraggler = *v4Overlap, *v4Straggler
	var b strings.Builder
	fmt.Fprintf(&b, "overlap %v, EP straggler %v (ms)\n", perf.UseAsyncOverlap, perf.UseEPStraggler)
	b.WriteString("| row | TPOT p50 pub / replay | tok/s err | step | GPU | dense GEMM | mHC | attention | indexer | experts | gaps (kernels) | TP AR | host exposed |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, x := range replayRows(t, "tant2-blogarch-h100-dsv4flash0731-tp8ep-") {
		r, o, sm := x.Row, x.Out, x.Step
		in, out := lengths(r.Workload)
		conc := r.Load.Concurrency.Int()
		p := sm.DecodePartsAt(conc, float64(in)+float64(out)/2)
		ms := func(s float64) float64 { return 1e3 * s }
		tps := 0.0
		if o.Sim != nil {
			tps = o.Sim.OutputTokPerS
		}
		fmt.Fprintf(&b, "| %s | %.2f / %.2f | %+.0f%% | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f (%.0f) | %.2f | %.2f |\n",
			strings.TrimPrefix(r.ID, "tant2-blogarch-h100-dsv4flash0731-tp8ep-"), r.Figures.TPOTMs.Median.V, ms(o.TPOT.P50),
			100*(tps/r.Figures.OutputTokPerS.V-1), ms(p.TotalS), ms(p.GPUS), ms(p.DenseS), ms(p.MHCS), ms(p.AttentionS), ms(p.IndexerS),
			ms(p.ExpertS), ms(p.KernelGapsS), p.Kernels, ms(p.TPS), ms(p.HostExposedS))
	}
	// Per kernel class against the source's own trace (tant2tls/Deepseek-
	// serving reports/blog-architecture-h100-v1/components.csv at
	// 84d04315: GPU kernel time a step on one rank, the mean of its 8
	// ranks, 47-48 profiled decode steps each, vLLM 0.31.1rc1.dev50). The
	// model's side is its term plus one kernel gap for each kernel the
	// census puts in that class: FlashMLA's split-KV kernel and combine (2
	// a layer), the mHC blocks (mhcKernelsPerLayer), the two expert GEMMs.
	traces := []struct {
		row                  string
		conc                 int
		ctx                  float64
		span, attn, mhc, exp float64
	}{
		{"1k-c1", 1, 1024 + 128, 8.01, 0.97, 1.54, 1.29},
		{"1k-c8", 8, 1024 + 128, 11.13, 1.01, 2.19, 3.67},
		{"64k-c1", 1, 65536 + 128, 8.06, 0.98, 1.53, 1.29},
		{"64k-c8", 8, 65536 + 128, 11.61, 1.11, 2.18, 3.73},
	}
	b.WriteString("\nper kernel class, model (term + census gaps) against the trace's kernel sums (ms a step, one rank)\n| row | GPU vs profiled span | FlashMLA decode | mHC | routed experts (HUMMING) |\n|---|---|---|---|---|\n")
	for _, tr := range traces {
		for _, r := range targetableRows(t) {
			if r.ID != "tant2-blogarch-h100-dsv4flash0731-tp8ep-"+tr.row {
				continue
			}
			_, sm, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			p := sm.DecodePartsAt(tr.conc, tr.ctx)
			gap, layers := sm.S.Eff.KernelGapS, float64(sm.S.Model.NumLayers)
			fmt.Fprintf(&b, "| %s | %.2f vs %.2f | %.2f vs %.2f | %.2f vs %.2f | %.2f vs %.2f |\n", tr.row,
				1e3*p.GPUS, tr.span, 1e3*(p.AttentionS+2*layers*gap), tr.attn,
				1e3*(p.MHCS+(4*layers+4)*gap), tr.mhc, 1e3*(p.ExpertS+2*layers*gap), tr.exp)
		}
	}
	// The last full 8,192-token chunk of a 16K and a 64K prompt (the
	// source's trace: prefix 8,192 and ~57K tokens), alone in its step.
	if rows := targetableRows(t); len(rows) > 0 {
		for _, r := range rows {
			if r.ID != "tant2-blogarch-h100-dsv4flash0731-tp8ep-1k-c1" {
				continue
			}
			_, sm, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, prefix := range []float64{8192, 57344} {
				c := 8192.0
				st := sm.Step([]perf.RankLoad{{PrefillTokens: c, PrefillPairs: c * (prefix + (c+1)/2), PrefillPrefix: prefix, PrefillSeqs: 1}})
				fmt.Fprintf(&b, "prefill chunk 8192 after %.0f: step %.1f ms = dense %.1f + attention %.1f + experts %.1f + gaps %.1f + TP %.1f + host %.1f\n",
					prefix, 1e3*st.TotalS, 1e3*st.DenseS, 1e3*st.AttentionS, 1e3*st.ExpertS, 1e3*st.KernelGapsS, 1e3*st.TPS, 1e3*st.OverheadS)
			}
		}
	}
	t.Logf("DeepSeek-V4-Flash decode steps:\n%s", b.String())
}

// v4GPUSummary runs TestV4GPUSummary (analysis, prints only): the
// calibration split within ±30% (as TestCalibrationThroughput counts it),
// the holdout split, and the six DeepSeek-V4-Flash rows' output tok/s
// errors, with perf.UseAsyncOverlap and perf.UseEPStraggler off and on.
var v4GPUSummary = flag.Bool("v4gpusummary", false, "print the splits' counts and the six V4-Flash figures with the overlap and EP-straggler switches off and on (analysis)")

func TestV4GPUSummary(t *testing.T) {
	if !*v4GPUSummary {
		t.Skip("analysis: run with -v4gpusummary")
	}
	defer func(o, s bool) { perf.UseAsyncOverlap, perf.UseEPStraggler = o, s }(perf.UseAsyncOverlap, perf.UseEPStraggler)
	var b strings.Builder
	for _, c := range []struct{ overlap, straggler bool }{{false, false}, {false, true}, {true, false}, {true, true}} {
		perf.UseAsyncOverlap, perf.UseEPStraggler = c.overlap, c.straggler
		_, ts := all(t)
		var v4 []string
		for _, x := range ts {
			if strings.HasPrefix(x.Row, "tant2-blogarch-h100-dsv4flash0731-tp8ep-") && x.Metric == "output_tok_per_s" {
				v4 = append(v4, fmt.Sprintf("%s %+.0f%%", strings.TrimPrefix(x.Row, "tant2-blogarch-h100-dsv4flash0731-tp8ep-"), 100*(x.Predicted/x.Published-1)))
			}
		}
		n := countSplits(ts)
		fmt.Fprintf(&b, "overlap %v straggler %v: calibration %d of %d, holdout %d of %d; V4-Flash tok/s: %s\n",
			c.overlap, c.straggler, n.calWithin, n.cal, n.heldWithin, n.held, strings.Join(v4, ", "))
	}
	t.Log("\n" + b.String())
}

// TestV4GPUFlips lists the figures whose within-±30% verdict perf.
// UseEPStraggler flips, with the overlap as -v4overlap says (analysis,
// -v4gpusummary).
func TestV4GPUFlips(t *testing.T) {
	if !*v4GPUSummary {
		t.Skip("analysis: run with -v4gpusummary")
	}
	defer func(o, s bool) { perf.UseAsyncOverlap, perf.UseEPStraggler = o, s }(perf.UseAsyncOverlap, perf.UseEPStraggler)
	perf.UseAsyncOverlap = *v4Overlap
	perf.UseEPStraggler = false
	_, off := all(t)
	perf.UseEPStraggler = true
	_, on := all(t)
	t.Logf("overlap %v, straggler flips:\n%s", perf.UseAsyncOverlap, flips(off, on))
}
