package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

// moeSmall runs TestMoESmallBatchTerms, an analysis (issue #28, session
// 41: held-out MoE rows at small batch predicted too fast) that prints and
// asserts nothing, skipped by default:
// go test ./estimate/replay -run TestMoESmallBatchTerms -moesmall -v
var moeSmall = flag.Bool("moesmall", false, "print the decode step terms of the MoE rows issue #28's moe throughput misses name (analysis)")

// moeSmallPrefixes are the rows the analysis reads.
var moeSmallPrefixes = []string{
	"sglcb-qwen3-235b-b200-sglang-tp8-",
	"sglcb-step35-flash-h200-sglang-",
	"tant2-blogarch-h100-dsv4flash0731-",
	"sglang-pr3602-dsv3-h200-",
	"inferencex828-oss120b-h100-vllm-tp8-1k1k-",
	"ixpr3363-dsr1-b200-sglang-tp8-1k1k-",
}

// TestMoESmallBatchTerms prints, per row, the replay's TPOT against the
// published one and the decode step at the run's mean concurrency and
// context, term by term, with the routed-expert term per MoE layer (the
// figure to hold against a measured fused-MoE op latency at that batch).
func TestMoESmallBatchTerms(t *testing.T) {
	if !*moeSmall {
		t.Skip("analysis: run with -moesmall")
	}
	var b strings.Builder
	for _, p := range moeSmallPrefixes {
		for _, x := range replayRows(t, p) {
			r, o, sm := x.Row, x.Out, x.Step
			f, w := r.Figures, r.Workload
			pub := f.TPOTMs.Mean.V
			if pub == 0 {
				pub = f.TPOTMs.Median.V
			}
			conc := max(1, int(f.MeanConcurrency.V+0.5))
			if f.MeanConcurrency.V == 0 {
				conc = max(1, r.Load.Concurrency.Int())
			}
			pt, st := sm.DecodeAt(conc, w.InputTokensMean.V+w.OutputTokensMean.V/2)
			d := sm.ExpertDiagAt(float64(pt.SeqsPerRank))
			m := sm.S.Model
			fmt.Fprintf(&b, "%s: TPOT pub %.2f replay %.2f ms; step %d seqs %.2f = dense %.2f + experts %.2f (%.1f us/layer of %d, %.3g GB) + attn %.2f + gaps %.2f (%.0f kernels, %.2f us) + TP %.2f + a2a %.2f + host %.2f; weights %s SGLang %v\n",
				r.ID, pub, 1e3*o.TPOT.Mean, conc, 1e3*st.TotalS, 1e3*st.DenseS, 1e3*st.ExpertS, 1e6*st.ExpertS/float64(max(1, m.NumLayers-m.FirstKDenseReplace)), m.NumLayers-m.FirstKDenseReplace, d.Bytes/1e9,
				1e3*st.AttentionS, 1e3*st.KernelGapsS, st.Kernels, 1e6*sm.S.Eff.KernelGapS, 1e3*st.TPS, 1e3*st.A2AS, 1e3*st.OverheadS, sm.S.WeightDType, sm.S.SGLang)
		}
	}
	t.Log("\n" + b.String())
}
