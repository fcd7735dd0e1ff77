package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestCustomARCurve: the curve returns the table's points, interpolates
// between them, holds below the first, takes the curve of the fewest GPUs
// at or above the group's, and declines systems and GPU counts it has no
// curve for and messages above the kernel's 8 MiB.
func TestCustomARCurve(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }
	cases := []struct {
		sys  string
		n    int
		msg  float64
		want float64 // µs
	}{
		{"h100_sxm", 8, 1 << 20, 15.0},   // a point: 1 MiB on 8 H100s
		{"h100_sxm", 8, 1 << 10, 5.11},   // below 8 KiB: the first point
		{"h100_sxm", 8, 768 << 10, 13.5}, // half-way 512 KiB → 1 MiB
		{"h100_sxm", 6, 1 << 20, 15.0},   // 6 GPUs: the 8-GPU curve
		{"h100_sxm", 3, 1 << 20, 12.8},   // 3 GPUs: the 4-GPU curve
		{"b200_sxm", 8, 256 << 10, 25.8}, // B200's two-shot step
		{"a100_sxm", 2, 16 << 10, 5.34},
	}
	for _, c := range cases {
		got, ok := customARTime(c.sys, c.n, c.msg)
		if !ok || !near(got, c.want*1e-6) {
			t.Errorf("%s × %d at %.0f B: %.3f µs (%v), want %.3f", c.sys, c.n, c.msg, got*1e6, ok, c.want)
		}
	}
	if got, ok := customARTime("h100_sxm", 8, 8<<20); !ok || !near(got, 50.7e-6) {
		t.Errorf("8 MiB on 8 H100s: %.1f µs (%v), want 50.7", got*1e6, ok)
	}
	if _, ok := customARTime("h100_sxm", 8, 8<<20+1); ok {
		t.Error("above 8 MiB: a custom all-reduce time, want none (vLLM hands it on)")
	}
	for _, c := range []struct {
		sys string
		n   int
	}{{"gb200", 8}, {"l40s", 2}, {"", 8}, {"h100_sxm", 16}, {"h100_sxm", 1}} {
		if _, ok := customARTime(c.sys, c.n, 1<<20); ok {
			t.Errorf("%q × %d: a curve, want none", c.sys, c.n)
		}
	}
}

// TestTPAllReduceUsesCurveAtDecodeSizes: a TP 8 all-reduce of a decode
// step's message on 8 H100s (100 sequences of Llama-70B, 1.6 MB) costs the
// measured curve, well above the floor-plus-link line it replaces (issue
// #28: 17.6 µs measured against the line's 11.1), and the switch restores
// the line.
func TestTPAllReduceUsesCurveAtDecodeSizes(t *testing.T) {
	defer func(o bool) { UseCustomARCurve = o }(UseCustomARCurve)
	eff := DefaultEfficiency
	eff.Kernels, _ = MeasuredKernels(perfGPU(t, "h100-sxm"))
	s := StepSetup{Model: perfModel(t, "llama-3.1-70b"), HW: NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 1, 0, 0, 0), TP: 8, PP: 1, DP: 1,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
	msg := 100.0 * 8192 * 2
	f := (msg - (1 << 20)) / (1 << 20)
	want := (15.0+f*(19.4-15.0))*1e-6 - eff.KernelGapS
	UseCustomARCurve = true
	on := NewStepModel(s).tpAllReduce(msg)
	if !perfNear(on, want, 1e-9) {
		t.Errorf("curve: %.2f µs, want %.2f", on*1e6, want*1e6)
	}
	// A prefill's message (8K tokens, 128 MiB) stays on the line: vLLM's
	// custom all-reduce does not take it.
	big := 8192.0 * 8192 * 2
	bigOn := NewStepModel(s).tpAllReduce(big)
	UseCustomARCurve = false
	if bigOff := NewStepModel(s).tpAllReduce(big); bigOn != bigOff {
		t.Errorf("128 MiB: %.1f µs with the curve, %.1f without; want the line either way", bigOn*1e6, bigOff*1e6)
	}
	off := NewStepModel(s).tpAllReduce(msg)
	line := RingAllReduceBytes(msg, 8)/(s.HW.IntraBytesPerS*eff.Kernels.AllReduceLink) + max(0, eff.Kernels.AllReduceS-eff.KernelGapS)
	if !perfNear(off, line, 1e-9) || on < off+4e-6 {
		t.Errorf("line %.2f µs (want %.2f), curve %.2f: want the curve ≥ 4 µs above the line", off*1e6, line*1e6, on*1e6)
	}
}

// tparLlama70BH100 is Llama-3.1-70B BF16 at TP 8 on 8 H100s with CUDA
// graphs under release version ("" : release not known).
func tparLlama70BH100(t *testing.T, version string) StepSetup {
	t.Helper()
	eff := DefaultEfficiency
	eff.Kernels, _ = MeasuredKernels(perfGPU(t, "h100-sxm"))
	s := StepSetup{Model: perfModel(t, "llama-3.1-70b"), HW: NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 1, 0, 0, 0), TP: 8, PP: 1, DP: 1,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
	if version != "" {
		r, _, err := vllm.ResolveString(version)
		if err != nil {
			t.Fatal(err)
		}
		s.TPAR = TPARSetupFor(r, perfGPU(t, "h100-sxm"), 8192)
	}
	return s
}

// TestTPARTablePerRelease: a TP 8 all-reduce of 100 Llama-70B sequences
// (1.6 MB, torch symmetric memory's multimem on 8 H100s) is priced from the
// table measured nearest the release: vLLM 0.15.0 by the 0.14.0 table
// (torch 2.9.1: 17.3 µs at 1 MiB, 20.9 at 2 MiB), 0.24.0 by its own (15.0,
// 19.4); an unknown release and one before symmetric memory took these
// sizes (0.10.2) by the newest, as before; the switch off restores it.
func TestTPARTablePerRelease(t *testing.T) {
	defer func(o bool) { UseTPARPerRelease = o }(UseTPARPerRelease)
	UseTPARPerRelease = true
	msg := 100.0 * 8192 * 2
	f := (msg - (1 << 20)) / (1 << 20)
	at := func(lo, hi float64) float64 { return (lo+f*(hi-lo))*1e-6 - DefaultEfficiency.KernelGapS }
	for _, c := range []struct {
		version string
		want    float64
	}{
		{"0.15.0", at(17.3, 20.9)},
		{"0.16.0", at(17.3, 20.9)},
		{"0.19.0", at(14.8, 19.4)},
		{"0.24.0", at(15.0, 19.4)},
		{"", at(15.0, 19.4)},
		{"0.10.2", at(15.0, 19.4)},
	} {
		if got := NewStepModel(tparLlama70BH100(t, c.version)).tpAllReduce(msg); !perfNear(got, c.want, 1e-9) {
			t.Errorf("vLLM %q: %.2f µs, want %.2f", c.version, got*1e6, c.want*1e6)
		}
	}
	UseTPARPerRelease = false
	if got, want := NewStepModel(tparLlama70BH100(t, "0.15.0")).tpAllReduce(msg), at(15.0, 19.4); !perfNear(got, want, 1e-9) {
		t.Errorf("switch off, 0.15.0: %.2f µs, want the newest table's %.2f", got*1e6, want*1e6)
	}
}

// TestFusedAllReduceRMSNorm: from vLLM 0.17.0 a decode step of 10
// Llama-70B sequences at TP 8 on 8 H100s (160 KiB a message, under the
// fusion's 0.5 MiB) runs its 160 all-reduces as FlashInfer's fused
// all-reduce + RMSNorm: each priced by TensorRT-LLM's table (6.2 µs at
// 128 KiB, 10.2 at 256 KiB: 7.2 µs at 160 KiB) less the kernel gap, and the
// 160 RMSNorms they take in leave the kernel count; at 0.16.0 neither. A
// MoE model's expert-output all-reduces stay plain (gpt-oss-120b: 36 of
// 72 fused), and DeepSeek-V4's none.
func TestFusedAllReduceRMSNorm(t *testing.T) {
	defer func(o bool) { UseTPARPerRelease = o }(UseTPARPerRelease)
	UseTPARPerRelease = true
	old, fused := NewStepModel(tparLlama70BH100(t, "0.16.0")), NewStepModel(tparLlama70BH100(t, "0.17.0"))
	_, st16 := old.DecodeAt(10, 256)
	_, st17 := fused.DecodeAt(10, 256)
	msg := 10.0 * 8192 * 2
	f := (msg - (128 << 10)) / (128 << 10)
	want := 160 * ((6.2+f*(10.2-6.2))*1e-6 - DefaultEfficiency.KernelGapS)
	if !perfNear(st17.TPS, want, 1e-6) {
		t.Errorf("0.17.0: TP all-reduce %.1f µs, want %.1f (160 fused calls)", st17.TPS*1e6, want*1e6)
	}
	if d := st16.Kernels - st17.Kernels; d != 160 {
		t.Errorf("0.17.0 runs %.0f fewer kernels than 0.16.0, want 160 (the fused RMSNorms)", d)
	}
	if st17.TotalS >= st16.TotalS {
		t.Errorf("fused step %.2f ms not below the plain %.2f", st17.TotalS*1e3, st16.TotalS*1e3)
	}
	// Above the fusion's size (64 sequences: 1 MiB) the plain kernel runs.
	_, big16 := old.DecodeAt(64, 256)
	_, big17 := fused.DecodeAt(64, 256)
	if big16.Kernels != big17.Kernels {
		t.Errorf("64 sequences: %.0f kernels at 0.17.0, %.0f at 0.16.0; want the same (no fusion above 0.5 MiB)", big17.Kernels, big16.Kernels)
	}
	for _, c := range []struct {
		model string
		want  float64
	}{{"gpt-oss-120b", 36}, {"deepseek-v4-flash", 0}} {
		kernels := map[string]float64{}
		for _, v := range []string{"0.16.0", "0.17.0"} {
			s := tparLlama70BH100(t, v)
			s.Model = perfModel(t, c.model)
			s.WeightDType = s.Model.CheckpointDType()
			_, st := NewStepModel(s).DecodeAt(4, 256)
			kernels[v] = st.Kernels
		}
		if d := kernels["0.16.0"] - kernels["0.17.0"]; d != c.want {
			t.Errorf("%s: %.0f RMSNorms fused a step, want %.0f", c.model, d, c.want)
		}
	}
}
