package perf

import (
	"math"
	"testing"
)

// INT8 W8A8 weights run their GEMMs at the GPU's INT8 peak with the scalar
// GEMM efficiency: on an A100 (INT8 624 TOPS dense, BF16 312 TFLOPS, no
// FP8) Llama-3.1-8B's dense term is, by hand,
//
//	compute = (2 × tokens × P + 2 × sampled × LM) / (peak × GEMM)
//	memory  = (P × bytes + LM × 2 + tokens × hidden × 2 × 8 × layers) / (HBM × eff)
//	dense   = max(compute, memory)
//
// with P the attention + MLP + norm parameters, LM the LM head, bytes 1
// (INT8) or 2 (BF16). A decode step of 256 sequences and a prefill of 8192
// tokens are both compute-bound, so INT8's dense time is half BF16's.
func TestINT8GEMMsOnA100(t *testing.T) {
	m := perfModel(t, "llama-3.1-8b")
	g := perfGPU(t, "a100-80g")
	if g.INT8TOPS != 624 || g.BF16TFLOPS != 312 || g.FP8TFLOPS != 0 {
		t.Fatalf("A100 peaks INT8 %g BF16 %g FP8 %g, want 624, 312, none", g.INT8TOPS, g.BF16TFLOPS, g.FP8TFLOPS)
	}
	eff := Efficiency{GEMM: 0.7, GEMMFP8: 0.5, ExpertGEMM: 1, Attention: 1, HBM: 0.8, Link: 1}
	p := m.ParamCounts()
	P := p.Attention + p.DenseMLP + p.SharedExperts + p.Router + p.Norms
	LM := lmHeadParams(p)
	hbm := g.HBMBandwidthGBytesPerS * 1e9 * eff.HBM
	act := func(tok float64) float64 {
		return tok * float64(m.HiddenSize) * 2 * activationPassesPerLayer * float64(m.NumLayers)
	}
	for _, c := range []struct {
		name         string
		load         RankLoad
		tok, sampled float64
	}{
		{"decode 256", RankLoad{DecodeSeqs: 256, DecodeCtx: 1024}, 256, 256},
		{"prefill 8192", RankLoad{PrefillTokens: 8192, PrefillPairs: 8192 * 8193 / 2, PrefillSeqs: 1}, 8192, 1},
	} {
		dense := map[string]float64{}
		for _, w := range []struct {
			dtype string
			peak  float64
			bytes float64
		}{{"int8", 624e12, 1}, {"bf16", 312e12, 2}} {
			sm := NewStepModel(StepSetup{Model: m, HW: NewHardware(g, 1, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
				WeightDType: w.dtype, KVDType: "bf16", CUDAGraphs: true, Eff: eff})
			st := sm.StepUniform(c.load)
			compute := (2*c.tok*P + 2*c.sampled*LM) / (w.peak * eff.GEMM)
			memory := (P*w.bytes + LM*2 + act(c.tok)) / hbm
			if compute <= memory {
				t.Fatalf("%s %s: compute %.3f ms ≤ memory %.3f ms; the case is meant compute-bound", c.name, w.dtype, compute*1e3, memory*1e3)
			}
			if math.Abs(st.DenseS-compute) > 1e-9*compute {
				t.Errorf("%s %s: dense %.4f ms, want by hand %.4f ms", c.name, w.dtype, st.DenseS*1e3, compute*1e3)
			}
			dense[w.dtype] = st.DenseS
			gemm, _ := sm.S.Precisions()
			if gemm != w.dtype {
				t.Errorf("%s: GEMM precision %q, want %q", w.dtype, gemm, w.dtype)
			}
		}
		if r := dense["bf16"] / dense["int8"]; math.Abs(r-2) > 1e-9 {
			t.Errorf("%s: BF16/INT8 dense time %.4f, want 2", c.name, r)
		}
	}
}

// Where INT8 equals FP8 on a GPU with measured FP8 GEMM figures (H100:
// 1,979 both) INT8 takes FP8's measured efficiency and per-tensor fp8 GEMM
// table, and says so; where the peaks differ or nothing was measured (H20:
// equal peaks, no tables) the scalar GEMM efficiency. A GPU whose INT8
// peak was not read (H800) prices INT8 GEMMs at BF16 and says so. B300's
// datasheet INT8 (153.5 TOPS dense) is far below its BF16 (2,250): INT8
// GEMMs run at that cut rate with the scalar GEMM efficiency, not at FP8's.
func TestINT8PeakAndFallback(t *testing.T) {
	defer func(was bool) { UseGEMMTables = was }(UseGEMMTables)
	m := perfModel(t, "llama-3.1-8b")
	setup := func(gpu string) StepSetup {
		g := perfGPU(t, gpu)
		return StepSetup{Model: m, HW: NewHardware(g, 1, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
			WeightDType: "int8", KVDType: "bf16", CUDAGraphs: true, Eff: ForGPU(DefaultEfficiency, g)}
	}
	h := setup("h100-sxm")
	if h.gemmFLOPS() != 1979e12 || h.gemmEff() != h.Eff.GEMMFP8 || h.Eff.GEMMFP8 == h.Eff.GEMM {
		t.Errorf("H100 INT8: peak %g eff %g, want 1979e12 at FP8's measured %g (BF16's %g)", h.gemmFLOPS(), h.gemmEff(), h.Eff.GEMMFP8, h.Eff.GEMM)
	}
	if gemm, _ := h.Precisions(); gemm != "int8 (at FP8's measured GEMM efficiency: equal INT8 and FP8 peaks)" {
		t.Errorf("H100 INT8 precision %q", gemm)
	}
	UseGEMMTables = true
	if d := NewStepModel(h).gemms; d == nil || d.shapes[0].dt != GEMMTableFP8 {
		t.Errorf("H100 INT8 with the GEMM tables: %+v, want the per-tensor fp8 table", d)
	}
	UseGEMMTables = false
	h20 := setup("h20-96g")
	if h20.gemmFLOPS() != 296e12 || h20.gemmEff() != h20.Eff.GEMM {
		t.Errorf("H20 INT8: peak %g eff %g, want 296e12 at the scalar GEMM %g", h20.gemmFLOPS(), h20.gemmEff(), h20.Eff.GEMM)
	}
	a100 := setup("a100-80g")
	if a100.gemmFLOPS() != 624e12 || a100.gemmEff() != a100.Eff.GEMM {
		t.Errorf("A100 INT8: peak %g eff %g, want 624e12 at the GEMM efficiency %g", a100.gemmFLOPS(), a100.gemmEff(), a100.Eff.GEMM)
	}
	l := setup("h800")
	if l.gemmFLOPS() != l.HW.BF16FLOPS || l.gemmEff() != l.Eff.GEMM {
		t.Errorf("H800 INT8: peak %g, want the BF16 %g (no INT8 figure read)", l.gemmFLOPS(), l.HW.BF16FLOPS)
	}
	if gemm, _ := l.Precisions(); gemm != "int8 at the bf16 rate (no INT8 peak known for this GPU)" {
		t.Errorf("H800 INT8 precision %q", gemm)
	}
	b := setup("b300")
	if b.gemmFLOPS() != 153.5e12 || b.gemmEff() != b.Eff.GEMM || b.gemmFLOPS() >= b.HW.BF16FLOPS {
		t.Errorf("B300 INT8: peak %g eff %g, want the datasheet's 153.5e12 (below BF16 %g) at the scalar GEMM %g",
			b.gemmFLOPS(), b.gemmEff(), b.HW.BF16FLOPS, b.Eff.GEMM)
	}
	if b := perfBytesPerParam("int8"); b != 1 {
		t.Errorf("INT8 bytes per weight %g, want 1", b)
	}
}
