package replay

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// b300FP4 runs TestB300FP4Terms, an analysis (issue #28, SGLang
// DeepSeek-R1 NVFP4 decode on B300) that prints and asserts nothing,
// skipped by default: go test ./estimate/replay -run TestB300FP4Terms -b300fp4 -v
var b300FP4 = flag.Bool("b300fp4", false, "print the held-out SGLang DeepSeek-R1 NVFP4 B300 rows' decode step terms (analysis)")

func TestB300FP4Terms(t *testing.T) {
	if !*b300FP4 {
		t.Skip("analysis: run with -b300fp4")
	}
	var b strings.Builder
	b.WriteString("| row | TPOT pub / replay | step | GPU | dense | attention | experts (c / m) | curve x, TFLOPS | gaps (kernels) | TP AR | host exposed |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, x := range replayRows(t, "ixpr3183-dsr1fp4-b300-sglang-") {
		r, o, sm := x.Row, x.Out, x.Step
		in, out := lengths(r.Workload)
		conc := r.Load.Concurrency.Int()
		p := sm.DecodePartsAt(conc, float64(in)+float64(out)/2)
		d := sm.ExpertDiagAt(float64(conc))
		ms := func(s float64) float64 { return 1e3 * s }
		fmt.Fprintf(&b, "| %s | %.2f / %.2f | %.2f | %.2f | %.2f | %.2f | %.2f (%.2f / %.2f) | %s %.1f, %.0f | %.2f (%.0f) | %.2f | %.2f |\n",
			strings.TrimPrefix(r.ID, "ixpr3183-dsr1fp4-b300-sglang-"), r.Figures.TPOTMs.Mean.V, ms(o.TPOT.Mean),
			ms(p.TotalS), ms(p.GPUS), ms(p.DenseS), ms(p.AttentionS), ms(p.ExpertS), ms(d.ComputeS), ms(d.MemoryS),
			d.Curve, d.CurveX, d.CurveFLOPS/1e12, ms(p.KernelGapsS), p.Kernels, ms(p.TPS), ms(p.HostExposedS))
		fmt.Fprintf(&b, "  experts: %.3g GB/step per GPU, %.3g TFLOP; ExpertHBM %.2f\n", d.Bytes/1e9, d.FLOPs/1e12, sm.S.Eff.ExpertHBM)
		if conc == 1 {
			s := sm.S
			fmt.Fprintf(&b, "  setup: weights %s storage %+v HBM %.2e B/s eff %.2f FP4 %.2e BF16 %.2e; expert bytes %.3g, dense bytes/GPU %.3g, expert GB/step at c1 %.3g, gap %.2g us, step overhead %.3g ms, per seq %.3g us, SGLang %v overlap %v\n",
				s.WeightDType, s.Storage, s.HW.HBMBytesPerS, s.Eff.HBM, s.HW.FP4FLOPS, s.HW.BF16FLOPS, d.ExpertBytes, d.DenseBytesGPU, d.Bytes/1e9,
				1e6*s.Eff.KernelGapS, 1e3*s.Eff.StepOverheadS, 1e6*s.Eff.StepPerSeqS, s.SGLang, s.OverlapHost)
		}
	}
	t.Logf("DeepSeek-R1 NVFP4 B300 decode steps (ms):\n%s", b.String())
}

// b300FP4Dense, with -b300fp4, re-runs the step terms with the dense
// weights stored as ModelOpt's DeepSeek NVFP4 recipe leaves them
// (NVIDIA/TensorRT-Model-Optimizer examples/deepseek/ptq.py at 103b1bb1:
// "*attn*" disabled but "*wo*" quantized to NVFP4 unless
// --disable_wo_quant, "*head*" disabled, every other linear — dense MLP,
// shared experts — NVFP4; the v2 model card: "additionally quantizes the
// wo module in attention layers"), an experiment: the row's catalog entry
// is the FP8 checkpoint's and the checkpoint's own hf_quant_config.json
// is not in the repository.
var b300FP4Dense = flag.Bool("b300fp4dense", false, "with -b300fp4: dense weights as ModelOpt's DeepSeek NVFP4 recipe stores them (experiment)")

func TestB300FP4DenseExperiment(t *testing.T) {
	if !*b300FP4 || !*b300FP4Dense {
		t.Skip("analysis: run with -b300fp4 -b300fp4dense")
	}
	const nvfp4, bf16 = 4.5 / 8, 2.0
	var b strings.Builder
	for _, x := range replayRows(t, "ixpr3183-dsr1fp4-b300-sglang-") {
		r, sm, e := x.Row, x.Step, x.Eng
		s := sm.S
		m := s.Model
		tp := float64(s.TP)
		p := m.ParamCounts()
		attn := m.AttentionParams(float64(m.NumHeads)/tp, 1) * float64(m.NumLayers)
		wo := float64(m.NumHeads) / tp * float64(m.VHeadDim) * float64(m.HiddenSize) * float64(m.NumLayers)
		fp4 := wo + p.DenseMLP/tp + p.SharedExperts/tp
		rest := attn - wo + p.Router/tp + p.Norms/tp
		s.Storage = perf.StorageBytes{Expert: nvfp4, LMHead: bf16, Dense: (fp4*nvfp4 + rest*bf16) / (fp4 + rest),
			NVFP4: perf.NVFP4Parts{DenseMLP: true, Shared: true}}
		sm2 := perf.NewStepModel(s)
		o2, err := run(r, sm2, e, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		in, out := lengths(r.Workload)
		conc := r.Load.Concurrency.Int()
		q := sm2.DecodePartsAt(conc, float64(in)+float64(out)/2)
		fmt.Fprintf(&b, "%s: dense B/param %.3f (wo %.2g of %.3g attention params/GPU); dense bytes/GPU %.3g GB; TPOT pub %.2f replay %.2f (%+.0f%%), step %.2f, dense %.2f\n",
			strings.TrimPrefix(r.ID, "ixpr3183-dsr1fp4-b300-sglang-"), s.Storage.Dense, wo, attn, sm2.ExpertDiagAt(1).DenseBytesGPU/1e9,
			r.Figures.TPOTMs.Mean.V, 1e3*o2.TPOT.Mean, 100*(1e3*o2.TPOT.Mean/r.Figures.TPOTMs.Mean.V-1), 1e3*q.TotalS, 1e3*q.DenseS)
	}
	t.Logf("dense as ModelOpt's recipe stores it:\n%s", b.String())
}
