package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// ppSteps runs TestPPStepTerms, an analysis (issue #28: PP hand-offs,
// bubbles and the host cost of a cross-node step) that prints and asserts
// nothing, skipped by default:
// go test ./estimate/replay -run TestPPStepTerms -ppsteps -v
var ppSteps = flag.Bool("ppsteps", false, "print the step terms of every pipeline-parallel row, and of a two-node TP8 x PP2 variant (analysis)")

// TestPPStepTerms prints, for every targetable row of published/throughput.yaml
// with pp > 1, the replay's simulated TPOT and ITL against the published ones
// and the step model's terms for uniform decode steps of 1 to 256 sequences
// at the row's mean context: GPU per stage (dense, experts, attention,
// kernel gaps, TP all-reduce), the PP hand-offs (StepTime.PPS), the host's
// serial and launch time, and the step. vLLM without async scheduling keeps
// PP batches in flight (max_concurrent_batches = PP), and a sequence is in
// one of them, so a sequence's token interval is one pipeline traversal:
// the step model's pp × stage + hand-offs + host, which is what it prices.
// A two-node variant (the dense 72B model of the only two-node PP run found,
// TP8 × PP2 on 2 × 8 H100 over 8 × 400G IB, beside TP8 and TP16) shows what
// the model charges a cross-node pipeline step at batch 1.
func TestPPStepTerms(t *testing.T) {
	if !*ppSteps {
		t.Skip("analysis: run with -ppsteps")
	}
	var b strings.Builder
	var pp published.Row
	for _, r := range targetableRows(t) {
		if r.Layout.PP.Int() <= 1 {
			continue
		}
		pp = r
		in, out := lengths(r.Workload)
		fmt.Fprintf(&b, "\n%s (%s, %s %s, tp %d pp %d on %d × %s, %d node(s))\n", r.ID, r.Split, r.Engine.Name, r.Engine.Version,
			r.Layout.TP.Int(), r.Layout.PP.Int(), r.Hardware.GPUs.Int(), r.Hardware.GPU, r.Hardware.Nodes.Int())
		if o, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1}); err == nil && o.Sim != nil {
			fmt.Fprintf(&b, "simulated run: TPOT mean pub %s / pred %.1f ms (ITL mean pub %s), output tok/s pub %s / pred %.0f, mean step %.1f ms over %.0f running sequences\n",
				r.Figures.TPOTMs.Mean, o.Sim.TPOT.Mean*1e3, r.Figures.ITLMs.Mean, r.Figures.OutputTokPerS, o.Sim.OutputTokPerS, o.Sim.MeanStepS*1e3, o.Sim.MeanRunning)
		}
		s, _, err := Setup(r, perf.DefaultEfficiency)
		if err != nil {
			t.Fatal(err)
		}
		stepTable(&b, s, float64(in)+float64(out)/2)
	}
	if pp.ID == "" {
		t.Fatal("no targetable pipeline-parallel row")
	}
	// The two-node variant: the dense 72B model on 2 × 8 H100 SXM, 8 × 400G
	// NICs per node (Azure ND H100 v5), BF16, vLLM 0.11 on the Ray
	// executor, 1K context; TP8 on one node and TP16 across both beside it.
	v := pp
	v.ID, v.Model.Catalog, v.Model.Weights = "variant", "qwen2.5-72b", "bf16"
	v.Engine.Version, v.Engine.Flags = "0.11.0", "vllm serve Qwen/Qwen2.5-72B-Instruct"
	v.Hardware.GPUsPerNode, v.Hardware.InterNode = published.N(8), "InfiniBand 8 x 400 Gbit/s per node"
	for _, l := range []struct{ tp, pp, nodes int }{{8, 1, 1}, {8, 2, 2}, {16, 1, 2}} {
		v.Layout.TP, v.Layout.PP, v.Hardware.Nodes = published.N(float64(l.tp)), published.N(float64(l.pp)), published.N(float64(l.nodes))
		v.Hardware.GPUs = published.N(float64(l.tp * l.pp))
		s, _, err := Setup(v, perf.DefaultEfficiency)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "\nvariant: Qwen2.5-72B BF16, vLLM 0.11, tp %d pp %d on %d node(s) of 8 × H100 SXM, 8 × 400G IB\n", l.tp, l.pp, l.nodes)
		stepTable(&b, s, 1024)
	}
	t.Logf("pipeline-parallel step terms (ms):%s", b.String())
}

// stepTable writes the step terms of uniform decode steps at a mean context.
func stepTable(b *strings.Builder, s perf.StepSetup, ctx float64) {
	sm := perf.NewStepModel(s)
	b.WriteString("| seqs | dense (stage) | experts (stage) | attention (stage) | kernel gaps (all stages) | TP all-reduce (stage) | PP hand-offs | GPU (pp × stage + hand-offs) | host serial | launch | step |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range []float64{1, 8, 32, 128, 256} {
		st := sm.StepUniform(perf.RankLoad{DecodeSeqs: n, DecodeCtx: n * ctx})
		ms := func(v float64) string { return fmt.Sprintf("%.2f", v*1e3) }
		gpu := st.TotalS - st.OverheadS
		fmt.Fprintf(b, "| %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, ms(st.DenseS), ms(st.ExpertS), ms(st.AttentionS),
			ms(st.KernelGapsS), ms(st.TPS), ms(st.PPS), ms(gpu), ms(st.HostS), ms(st.LaunchS), ms(st.TotalS))
	}
}
