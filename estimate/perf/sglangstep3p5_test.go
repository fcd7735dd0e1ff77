package perf

import (
	"math"
	"testing"
)

// TestSGLangStep3p5Ops: Step-3.5-Flash (45 layers, layers 3–44 MoE with a
// shared expert, q/k norms, the head-wise gate, need_fp32_gate, routed
// scaling 3.0) under SGLang at TP 4, by hand from step3p5.py at 50e143a6
// (sglangstep3p5.go):
//
//	dense layer: q_norm, k_norm (2) + g_proj, sigmoid, gate product (3)
//	             + residual add (1)                                  = 6
//	MoE layer:   6 + moe + shared add (1) + two float32 casts (2)
//	             + routed scaling (1) + the shared expert's all-reduce (1) = 11
//	forward:     3 × 6 + 42 × 11 = 480 kernels, 42 all-reduces
//
// so the step's kernels grow by 480 (the census's 42 × 21 + 3 × 11 + 4 =
// 919 → 1,399) and its TP all-reduces by 42 (90 → 132); at TP 1 the shared
// expert does not reduce: 438 kernels, no all-reduce. A vLLM step and the
// switch off add nothing. The decode step at one sequence of 1K context
// grows by the kernels' gaps and the all-reduces:
//
//	480 × KernelGapS + 42 × (one TP-4 all-reduce of 4,096 × 2 B as tpAllReduce prices it).
func TestSGLangStep3p5Ops(t *testing.T) {
	m := perfModel(t, "step-3.5-flash")
	g := perfGPU(t, "h200")
	setup := func(tp int, sglang bool) StepSetup {
		return StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: tp, PP: 1, DP: 1, EP: tp > 1,
			WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, SGLang: sglang, OverlapHost: sglang,
			Eff: ForGPU(DefaultEfficiency, g)}
	}
	defer func(v bool) { UseSGLangStep3p5Ops = v }(UseSGLangStep3p5Ops)
	UseSGLangStep3p5Ops = true
	on4, vllm4, on1 := NewStepModel(setup(4, true)), NewStepModel(setup(4, false)), NewStepModel(setup(1, true))
	UseSGLangStep3p5Ops = false
	off4, off1 := NewStepModel(setup(4, true)), NewStepModel(setup(1, true))
	if math.Abs(off4.kernels-919) > 1e-9 || off4.tpReduces != 90 {
		t.Fatalf("census: %v kernels, %v all-reduces, want 919 and 90", off4.kernels, off4.tpReduces)
	}
	if d := on4.kernels - off4.kernels; math.Abs(d-480) > 1e-9 || on4.tpReduces != 132 {
		t.Errorf("TP 4: +%v kernels, %v all-reduces, want +480 and 132", d, on4.tpReduces)
	}
	if d := on1.kernels - off1.kernels; math.Abs(d-438) > 1e-9 || on1.tpReduces != off1.tpReduces {
		t.Errorf("TP 1: +%v kernels, %v all-reduces (off %v), want +438 and no change", d, on1.tpReduces, off1.tpReduces)
	}
	// vLLM runs the census plus its per-head q/k norms (qknorm.go).
	if want := 919 + qkNormKernels(m, &vllm4.S, vllm4.attnLayers); math.Abs(vllm4.kernels-want) > 1e-9 || vllm4.tpReduces != 90 {
		t.Errorf("vLLM: %v kernels, %v all-reduces, want the census's %v and 90", vllm4.kernels, vllm4.tpReduces, want)
	}
	pOn, _ := on4.DecodeAt(1, 1024)
	pOff, _ := off4.DecodeAt(1, 1024)
	want := 480*off4.S.Eff.KernelGapS + 42*off4.tpAllReduce(4096*2)
	if got := pOn.TPOTS - pOff.TPOTS; math.Abs(got-want) > 1e-9 {
		t.Errorf("one sequence: the step grows %.4g ms, want %.4g ms", got*1e3, want*1e3)
	}
	t.Logf("Step-3.5-Flash TP4 SGLang, one sequence at 1K: %.2f → %.2f ms", pOff.TPOTS*1e3, pOn.TPOTS*1e3)
}
