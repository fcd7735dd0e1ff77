package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// withNCCL runs f with the NCCL switches set, restoring them after.
func withNCCL(tables, naive bool, f func()) {
	defer func(t, n bool) { UseNCCLTables, UseNaiveA2A = t, n }(UseNCCLTables, UseNaiveA2A)
	UseNCCLTables, UseNaiveA2A = tables, naive
	f()
}

// The measured curve is linear in bytes between the measured sizes (knots
// made monotone), then adds the bus bytes at the largest message's
// bandwidth; GPU counts between rows interpolate in log2 n. Hand-derived
// from the B200 / H100 rows of tools/aicdata/README.md.
func TestNCCLCurve(t *testing.T) {
	ag := ncclB200.AllGather[2] // 8 GPUs: 16.1, 19.5, 18.7, 104 µs; 617 GB/s
	for _, c := range []struct {
		bytes, wantUs float64
	}{
		{0, 16.1},
		{8 << 10, (16.1 + 19.5) / 2},
		{1 << 20, 19.5}, // 18.7 measured, below the 16 KiB knot: held at 19.5
		{(1<<20 + 16<<20) / 2, (19.5 + 104) / 2},
		{16 << 20, 104},
		{32 << 20, 104 + float64(16<<20)*7/8/617e9*1e6},
	} {
		if got := ag.at(ncclAllGather, c.bytes) * 1e6; !perfNear(got, c.wantUs, 1e-9) {
			t.Errorf("B200 8-GPU all-gather of %.0f B: %.4f µs, want %.4f", c.bytes, got, c.wantUs)
		}
	}
	// all-reduce beyond 16 MiB: 2(n−1)/n of the extra bytes at the bus bandwidth.
	if got, want := ncclH100.AllReduce[2].at(ncclAllReduce, 32<<20)*1e6, 122+float64(16<<20)*1.75/445e9*1e6; !perfNear(got, want, 1e-9) {
		t.Errorf("H100 8-GPU all-reduce of 32 MiB: %.3f µs, want %.3f", got, want)
	}
	// 6 GPUs: between the 4- and 8-GPU floors at log2(6/4) of the way.
	w := 0.5849625007211562
	if got, ok := ncclH100.time(ncclAllReduce, 6, 0); !ok || !perfNear(got*1e6, 9.31*(1-w)+15.6*w, 1e-9) {
		t.Errorf("H100 6-GPU all-reduce floor %.4f µs (%v), want %.4f", got*1e6, ok, 9.31*(1-w)+15.6*w)
	}
	if _, ok := ncclGB200.time(ncclAllReduce, 8, 0); ok {
		t.Errorf("GB200's tables stop at a 4-GPU tray: 8 GPUs must not be measured")
	}
	var none *NCCLFigures
	if _, ok := none.time(ncclAllReduce, 8, 0); ok {
		t.Errorf("a GPU without tables has no measured collective")
	}
}

// dp8B200 is DeepSeek-V3 with DP 8 + EP 8 on one 8-GPU B200 node (the
// vllm-issue23752 layout), with the measured kernel figures.
func dp8B200(t *testing.T) StepSetup {
	eff := idealEff
	eff.Kernels = measuredKernels["b200"]
	return StepSetup{Model: perfModel(t, "deepseek-v3"), HW: NewHardware(perfGPU(t, "b200"), 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 8, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficGather, CUDAGraphs: true, Eff: eff}
}

// One decode token per rank: the gather moves 8 × 7168 × 2 = 114,688 B.
// allgather_reducescatter is the measured all-gather plus reduce-scatter
// of that buffer; naive is 8 × (a broadcast of one rank's 14,336 B of
// hidden states, priced as the all-gather of 16,384 B, and one of its
// 512 B of router logits, as the all-gather of 585 B) plus the all-reduce
// of the buffer — 2 × DP + 1 collectives, ≈8.5× the time.
func TestGatherInHostMeasured(t *testing.T) {
	f := (114688.0 - 16384) / (1048576 - 16384)
	ag := 19.5                 // 16.1, 19.5, 19.5 (18.7 held) …
	rs := 17.1 + f*(20.4-17.1) // 16.1, 17.1, 20.4 …
	ar := 26.6 + f*(30.1-26.6) // 25.1, 26.6, 30.1 …
	logits := 16.1 + 585.142857142857/16384*(19.5-16.1)
	naive := 8*(19.5+logits) + ar
	withNCCL(true, true, func() {
		s := dp8B200(t)
		sm := NewStepModel(s)
		got, ok := sm.gatherInHost(8)
		if !ok || !perfNear(got*1e6, ag+rs, 1e-9) {
			t.Errorf("allgather_reducescatter: %.4f µs (%v), want %.4f", got*1e6, ok, ag+rs)
		}
		loads := make([]RankLoad, 8)
		for i := range loads {
			loads[i] = RankLoad{DecodeSeqs: 1, DecodeCtx: 100}
		}
		if a := sm.Step(loads).A2AS; !perfNear(a, sm.moeLayers*got, 1e-9) {
			t.Errorf("step all-to-all %.4f ms, want %g MoE layers × %.4f µs", a*1e3, sm.moeLayers, got*1e6)
		}
		s.A2ANaive = true
		sm = NewStepModel(s)
		if got, ok := sm.gatherInHost(8); !ok || !perfNear(got*1e6, naive, 1e-9) {
			t.Errorf("naive: %.4f µs (%v), want %.4f", got*1e6, ok, naive)
		}
	})
}

// Without tables the naive backend still runs its 2 × DP + 1 collectives,
// each by the link model; the plain gather keeps a2aTime's formula.
func TestGatherInHostFirstPrinciples(t *testing.T) {
	withNCCL(false, true, func() {
		s := dp8B200(t)
		s.Eff.CollectiveS = 1.6e-6
		sm := NewStepModel(s)
		if _, ok := sm.gatherInHost(8); ok {
			t.Errorf("allgather_reducescatter without tables must fall back to a2aTime's link model")
		}
		s.A2ANaive = true
		sm = NewStepModel(s)
		bw, fixed := s.HW.IntraBytesPerS, 2*s.HW.IntraLatencyS+1.6e-6
		buf := 8 * 7168 * 2.0
		want := 8*((fixed+buf/8/bw)+(fixed+8*256*2.0/8/bw)) + fixed + RingAllReduceBytes(buf, 8)/bw
		if got, ok := sm.gatherInHost(8); !ok || !perfNear(got, want, 1e-9) {
			t.Errorf("naive by the link model: %.3f µs (%v), want %.3f", got*1e6, ok, want*1e6)
		}
	})
	withNCCL(true, false, func() {
		s := dp8B200(t)
		s.A2ANaive = true // the switch off: priced as allgather_reducescatter
		a, _ := NewStepModel(s).gatherInHost(8)
		s.A2ANaive = false
		b, _ := NewStepModel(s).gatherInHost(8)
		if a != b {
			t.Errorf("UseNaiveA2A off: naive %.3f µs, allgather_reducescatter %.3f µs; want equal", a*1e6, b*1e6)
		}
	})
}

// A TP all-reduce vLLM's custom all-reduce does not serve runs on NCCL:
// measured inside a host, less the kernel gap the step counts for it.
func TestTPAllReduceNCCLMeasured(t *testing.T) {
	eff := idealEff
	eff.Kernels = measuredKernels["h100-sxm"]
	eff.Kernels.AllReduceS = 0 // as if the custom all-reduce did not apply
	eff.KernelGapS = 2.45e-6
	s := StepSetup{Model: perfModel(t, "llama-3.1-70b"), HW: NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
	withNCCL(true, false, func() {
		if got, want := NewStepModel(s).tpAllReduce(1<<20), (25.4-2.45)*1e-6; !perfNear(got, want, 1e-9) {
			t.Errorf("TP8 NCCL all-reduce of 1 MiB on H100: %.3f µs, want %.3f", got*1e6, want*1e6)
		}
	})
	withNCCL(false, false, func() {
		want := RingAllReduceBytes(1<<20, 8)/s.HW.IntraBytesPerS + 2*s.HW.IntraLatencyS
		if got := NewStepModel(s).tpAllReduce(1 << 20); !perfNear(got, want, 1e-9) {
			t.Errorf("switch off: %.3f µs, want the link model's %.3f", got*1e6, want*1e6)
		}
	})
}
