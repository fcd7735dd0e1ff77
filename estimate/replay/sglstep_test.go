package replay

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// sglStep runs TestSGLangLowBatchDecodeSteps, an analysis (issue #28,
// task sglstep) that prints, for every targetable SGLang closed-loop row
// of at most 16 sessions without speculative decoding, the published
// decode step (median ITL, else TPOT) against the step model's at the
// run's mean concurrency and mean context, with its terms, the time
// missing and the time missing per decoder layer, sorted by model, GPU,
// SGLang release and batch; it asserts nothing:
// go test ./estimate/replay -run TestSGLangLowBatchDecodeSteps -sglstep -v
//
// Read 2026-12-06 (published/README.md, session sglstep): the DeepSeek-R1
// rows (InferenceX B200/B300 0.5.12, H200 0.5.7, MI325X 0.5.19) fit
// within −16% to +6%; the SGLang cookbook's Llama-3.1-70B TP8 A100 rows
// miss 2.6 ms at one sequence and 6.9–7.4 ms at 13–14, its Step-3.5-Flash
// TP4 + EP4 H200 rows 3.8 and 4.3 ms before perf.UseSGLangStep3p5Ops
// (2.6 and 3.1 ms with it).
var sglStep = flag.Bool("sglstep", false, "print the SGLang rows' low-concurrency decode steps against the step model's terms (analysis)")

// pubDecodeStep is the published figure a row's decode step is read from:
// the median ITL (a decode step without a prefill beside it, when the
// stream interval is 1), else the median TPOT, else the mean TPOT.
func pubDecodeStep(r published.Row) (float64, string) {
	f := r.Figures
	switch {
	case f.ITLMs.Median.Positive():
		return f.ITLMs.Median.V, "ITL p50"
	case f.TPOTMs.Median.Positive():
		return f.TPOTMs.Median.V, "TPOT p50"
	case f.TPOTMs.Mean.Positive():
		return f.TPOTMs.Mean.V, "TPOT mean"
	}
	return 0, ""
}

func TestSGLangLowBatchDecodeSteps(t *testing.T) {
	if !*sglStep {
		t.Skip("analysis: run with -sglstep")
	}
	type line struct {
		key string
		txt string
	}
	var lines []line
	for _, r := range targetableRows(t) {
		if r.Engine.Name != "sglang" || r.Load.Kind != published.LoadClosedLoop {
			continue
		}
		conc := r.Load.Concurrency.Int()
		pub, what := pubDecodeStep(r)
		if conc < 1 || conc > 16 || pub == 0 || r.Speculative != nil {
			continue
		}
		st, _, err := Setup(r, perf.DefaultEfficiency)
		if err != nil {
			t.Fatal(err)
		}
		sm := perf.NewStepModel(st)
		in, out := lengths(r.Workload)
		// The step at the run's mean concurrency where published (a
		// closed loop's sessions wait on prefills and the client), at the
		// mean context (prompt + half the output).
		b := conc
		if mc := r.Figures.MeanConcurrency; mc.Positive() {
			b = max(1, int(mc.V+0.5))
		}
		p := sm.DecodePartsAt(b, float64(in)+float64(out)/2)
		_, full := sm.DecodeAt(b, float64(in)+float64(out)/2)
		d := sm.ExpertDiagAt(float64(b))
		ms := func(s float64) float64 { return 1e3 * s }
		miss := pub - ms(p.TotalS)
		m := st.Model
		moe := r.Features.MoEBackend
		if moe == "" {
			moe = "-"
		}
		attn := r.Features.AttentionBackend
		if attn == "" {
			attn = "-"
		}
		key := fmt.Sprintf("%s|%s|%s|%02d", m.ID, r.Hardware.GPU, r.Engine.Version, conc)
		lines = append(lines, line{key, fmt.Sprintf("| %s | %s | %s | %d/%d/%d | %s | %s | %s | %d | %.2f %s | %.2f | %.2f | %.2f | %.2f | %.2f (%.0f) | %.2f | %.2f | %.2f | %+.2f | %+.1f | %+.0f%% |",
			r.ID, m.ID, r.Hardware.GPU, st.TP, r.Layout.EP.Int(), st.DP, r.Engine.Version, attn, moe, b,
			pub, what, ms(p.TotalS), ms(p.DenseS), ms(p.AttentionS), ms(p.ExpertS), ms(p.KernelGapsS), p.Kernels,
			ms(p.TPS), ms(full.HostS), ms(p.HostExposedS), miss, 1e3*miss/float64(m.NumLayers), 100*(ms(p.TotalS)/pub-1))})
		if d.Bytes > 0 {
			lines[len(lines)-1].txt += fmt.Sprintf(" experts %.2f GB/GPU at %.2f TB/s |", d.Bytes/1e9, d.Bytes/max(d.MemoryS, 1e-12)/1e12)
		} else {
			lines[len(lines)-1].txt += " |"
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].key < lines[j].key })
	var b strings.Builder
	b.WriteString("| row | model | GPU | TP/EP/DP | SGLang | attention | MoE | conc | published ms | model ms | dense | attn | experts | gaps (kernels) | TP AR | host | host exposed | missing ms | missing µs/layer | model vs pub | expert reads |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, l := range lines {
		b.WriteString(l.txt + "\n")
	}
	t.Logf("SGLang decode steps at ≤ 16 sequences (%d rows):\n%s", len(lines), b.String())
}
