package perf

import (
	"math"
	"testing"
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
