package perf

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// withH800Tables runs f with UseSharedDieTables set to on.
func withH800Tables(on bool, f func()) {
	saved := UseSharedDieTables
	defer func() { UseSharedDieTables = saved }()
	UseSharedDieTables = on
	f()
}

// The H800 takes the H100 SXM's tables for what runs inside one GPU and
// none of its collectives, only while the catalog gives the two the same
// peaks and HBM (the shared die, sharedDie) and only behind the switch.
func TestH800SharesH100Tables(t *testing.T) {
	h800, h100 := perfGPU(t, "h800"), perfGPU(t, "h100-sxm")
	// The die's figures, as the catalog holds them: the premise of sharing.
	if h800.BF16TFLOPS != h100.BF16TFLOPS || h800.FP8TFLOPS != h100.FP8TFLOPS ||
		h800.HBMBandwidthGBytesPerS != h100.HBMBandwidthGBytesPerS || h800.ComputeMajor != h100.ComputeMajor {
		t.Fatalf("catalog h800 %+v and h100-sxm %+v no longer share the die's figures", h800, h100)
	}
	// Only the NVLink differs: 400 GB/s bidirectional against 900.
	if h800.IntraNodeGBytesPerS != 200 || h100.IntraNodeGBytesPerS != 450 {
		t.Fatalf("NVLink per direction: h800 %g, h100 %g GB/s; want 200 and 450", h800.IntraNodeGBytesPerS, h100.IntraNodeGBytesPerS)
	}

	withH800Tables(false, func() {
		if got := ForGPU(DefaultEfficiency, h800); got != DefaultEfficiency {
			t.Errorf("switch off: the H800 keeps the fitted constants")
		}
		if _, ok := MeasuredKernels(h800); ok {
			t.Errorf("switch off: no tables for the H800")
		}
		if _, ok := GEMMTime(h800, GEMMTableBF16, 2048, 4096, 4096); ok {
			t.Errorf("switch off: no per-shape GEMM table for the H800")
		}
	})

	withH800Tables(true, func() {
		e8, e1 := ForGPU(DefaultEfficiency, h800), ForGPU(DefaultEfficiency, h100)
		if e8.GEMM != e1.GEMM || e8.GEMMFP8 != e1.GEMMFP8 || e8.HBM != e1.HBM || e8.KernelGapS != e1.KernelGapS {
			t.Errorf("H800 GEMM %.3f / %.3f HBM %.3f gap %.3g; want the H100's %.3f / %.3f %.3f %.3g",
				e8.GEMM, e8.GEMMFP8, e8.HBM, e8.KernelGapS, e1.GEMM, e1.GEMMFP8, e1.HBM, e1.KernelGapS)
		}
		k8, k1 := e8.Kernels, e1.Kernels
		if k8.System != "h100_sxm" || k8.PrefillAttn != k1.PrefillAttn || k8.AttnDecodeS != k1.AttnDecodeS ||
			k8.AttnPerSeqS != k1.AttnPerSeqS || k8.MoE == nil || *k8.MoE != *k1.MoE {
			t.Errorf("H800 kernels %+v; want the H100's single-GPU figures %+v", k8, k1)
		}
		// Nothing timed across GPUs: the H100's NVLink is not the H800's.
		if k8.NCCL != nil || k8.AllReduceS != 0 || k8.AllReduceLink != 0 {
			t.Errorf("H800 carries the H100's collectives: NCCL %v, all-reduce %.3g s at %.2f", k8.NCCL != nil, k8.AllReduceS, k8.AllReduceLink)
		}
		if k1.NCCL == nil || k1.AllReduceS == 0 {
			t.Errorf("the H100's own collectives must stay")
		}
		if src := k8.Source(); !strings.Contains(src, "h100_sxm") || !strings.Contains(src, "H800") {
			t.Errorf("source %q must name the table and the GPU it is lent to", src)
		}
		a, ok8 := GEMMTime(h800, GEMMTableBF16, 2048, 4096, 4096)
		b, ok1 := GEMMTime(h100, GEMMTableBF16, 2048, 4096, 4096)
		if !ok8 || !ok1 || a != b {
			t.Errorf("per-shape GEMM 2048×4096×4096: H800 %.3g (%v), H100 %.3g (%v); want the same table", a, ok8, b, ok1)
		}

		// A TP8 all-reduce of 1 MiB: the H100 runs vLLM's measured custom
		// all-reduce, the H800 the link model at its own 200 GB/s.
		setup := func(id string, eff Efficiency) StepSetup {
			return StepSetup{Model: perfModel(t, "llama-3.1-70b"), HW: NewHardware(perfGPU(t, id), 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
				WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
		}
		s8, s1 := setup("h800", e8), setup("h100-sxm", e1)
		const msg = 1 << 20
		ring := RingAllReduceBytes(msg, 8) // 2 · 7/8 · 1 MiB
		want := ring/(200e9*e8.Link) + 2*s8.HW.IntraLatencyS + e8.CollectiveS
		if got := NewStepModel(s8).tpAllReduce(msg); !perfNear(got, want, 1e-9) {
			t.Errorf("H800 TP8 all-reduce of 1 MiB: %.2f µs, want the link model's %.2f", got*1e6, want*1e6)
		}
		// Its measured curve at 1 MiB on 8 GPUs (customar.go), less the
		// kernel gap the step counts apart.
		want1 := max(0, 15.0e-6-e1.KernelGapS)
		if got := NewStepModel(s1).tpAllReduce(msg); !perfNear(got, want1, 1e-9) {
			t.Errorf("H100 TP8 all-reduce of 1 MiB: %.2f µs, want the custom all-reduce's %.2f", got*1e6, want1*1e6)
		}

		// Through a vLLM release: the H100's windowed floors and FlashMLA's
		// sparse decode on the die's 132 SMs (the catalog entry has none).
		rel, _, err := vllm.ResolveString("0.15.1")
		if err != nil {
			t.Fatal(err)
		}
		r8, r1 := ForRelease(DefaultEfficiency, h800, rel, true, nil), ForRelease(DefaultEfficiency, h100, rel, true, nil)
		if r8.Kernels.Windowed != r1.Kernels.Windowed {
			t.Errorf("windowed floors: H800 %v, H100 %v", r8.Kernels.Windowed, r1.Kernels.Windowed)
		}
		if h800.SMs == 0 && (r8.Kernels.SparseMLA == nil || r8.Kernels.SparseMLA.SMs != 132) {
			t.Errorf("FlashMLA sparse decode on the H800: %+v, want the die's 132 SMs", r8.Kernels.SparseMLA)
		}
		if r8.Kernels.NCCL != nil || r8.Kernels.AllReduceS != 0 {
			t.Errorf("ForRelease gives the H800 the H100's collectives")
		}
	})

	// No GPU outside sharedDie borrows a table (the A800's is
	// TestA800SharesA100Tables).
	withH800Tables(true, func() {
		if _, ok := MeasuredKernels(perfGPU(t, "h20-96g")); ok {
			t.Errorf("h20-96g borrows a table")
		}
	})
}

// The A800 takes the A100 SXM4 80GB's in-GPU figures (the same GA100 and
// HBM2e, sharedDie) and none of its collectives, behind the same switch.
func TestA800SharesA100Tables(t *testing.T) {
	a800, a100 := perfGPU(t, "a800"), perfGPU(t, "a100-80g")
	if a800.BF16TFLOPS != a100.BF16TFLOPS || a800.HBMBandwidthGBytesPerS != a100.HBMBandwidthGBytesPerS ||
		a800.ComputeMajor != a100.ComputeMajor || a800.IntraNodeGBytesPerS != 200 {
		t.Fatalf("catalog a800 %+v and a100-80g %+v no longer share the die's figures", a800, a100)
	}
	withH800Tables(false, func() {
		if _, ok := MeasuredKernels(a800); ok {
			t.Errorf("switch off: no tables for the A800")
		}
	})
	withH800Tables(true, func() {
		e8, e1 := ForGPU(DefaultEfficiency, a800), ForGPU(DefaultEfficiency, a100)
		if e8.GEMM != e1.GEMM || e8.HBM != e1.HBM || e8.KernelGapS != e1.KernelGapS || e8.Kernels.PrefillAttn != e1.Kernels.PrefillAttn {
			t.Errorf("A800 GEMM %.3f HBM %.3f gap %.3g; want the A100's %.3f %.3f %.3g", e8.GEMM, e8.HBM, e8.KernelGapS, e1.GEMM, e1.HBM, e1.KernelGapS)
		}
		if k := e8.Kernels; k.NCCL != nil || k.AllReduceS != 0 || k.AllReduceLink != 0 {
			t.Errorf("A800 carries the A100's collectives: NCCL %v, all-reduce %.3g s at %.2f", k.NCCL != nil, k.AllReduceS, k.AllReduceLink)
		}
	})
}
