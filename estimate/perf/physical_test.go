package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// Issue #28: the GPU's per-kernel cost scales with the kernels a model
// launches, not with a per-step lump fitted on DeepSeek: a batch-1 decode
// step of an 8B dense model pays its ≈350 kernels, DeepSeek-V3's ≈2,300.
func TestKernelGapsScaleWithTheModel(t *testing.T) {
	eff := Efficiency{GEMM: 1, ExpertGEMM: 1, Attention: 1, HBM: 1, Link: 1, KernelGapS: 2e-6}
	gaps := func(model string) StepTime {
		s := StepSetup{Model: perfModel(t, model), HW: NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
			WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
		return NewStepModel(s).StepUniform(RankLoad{DecodeSeqs: 1, DecodeCtx: 1000})
	}
	small, big := gaps("llama-3.1-8b"), gaps("deepseek-v3")
	if small.Kernels < 300 || small.Kernels > 450 || big.Kernels < 1500 || big.Kernels > 2000 {
		t.Fatalf("kernels per step: llama-3.1-8b %.0f (want ≈350), deepseek-v3 %.0f (want ≈1,700)", small.Kernels, big.Kernels)
	}
	for _, st := range []StepTime{small, big} {
		if !perfNear(st.KernelGapsS, st.Kernels*eff.KernelGapS, 1e-12) {
			t.Errorf("kernel gaps %.3g s, want kernels × gap %.3g s", st.KernelGapsS, st.Kernels*eff.KernelGapS)
		}
	}
	// The gaps are GPU time: with no host cost the step is the rooflines
	// plus the gaps.
	if got, want := small.TotalS, small.DenseS+small.AttentionS+small.KernelGapsS; !perfNear(got, want, 1e-12) {
		t.Errorf("8B step %.4g s, want rooflines + gaps %.4g s", got, want)
	}
}

// Batch-1 decode of a dense 8B model on H100 with the measured kernels:
// the dense GEMMs as the measured per-shape tables time them (UseGEMMTables;
// at M = 1 they stream the weights), the kernels' gaps and the host's step;
// no constant fitted on another regime adds whole milliseconds (the 4.1 ms
// lump of before made it ≈11.5 ms, 1.7× the public runs). The tables' sum
// itself must be a weight read: no faster than the datasheet HBM allows,
// no slower than 70% of it, and the step bound by memory bandwidth.
func TestDenseBatchOneDecodeIsWeightsGapsAndHost(t *testing.T) {
	g := perfGPU(t, "h100-sxm")
	eff := ForGPU(DefaultEfficiency, g)
	s := StepSetup{Model: perfModel(t, "llama-3.1-8b"), HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
	sm := NewStepModel(s)
	if !UseGEMMTables || sm.gemms == nil {
		t.Fatalf("H100 BF16 Llama-3.1-8B: no measured GEMM tables (UseGEMMTables %v)", UseGEMMTables)
	}
	_, st := sm.DecodeAt(1, 1024)
	gemms := sm.gemms.time(1, 1)
	if st.TotalS > gemms+st.KernelGapsS+st.HostS+st.AttentionS+0.2e-3 {
		t.Errorf("batch-1 step %.2f ms: more than the tables' GEMMs %.2f + gaps %.2f + host %.2f + attention %.2f ms", st.TotalS*1e3, gemms*1e3,
			st.KernelGapsS*1e3, st.HostS*1e3, st.AttentionS*1e3)
	}
	peakRead := sm.denseBytesGPU / (g.HBMBandwidthGBytesPerS * 1e9)
	if gemms < peakRead || gemms > peakRead/0.7 {
		t.Errorf("batch-1 GEMMs %.2f ms from the tables, want a weight read: %.2f ms at the datasheet HBM to %.2f ms at 70%% of it",
			gemms*1e3, peakRead*1e3, peakRead/0.7*1e3)
	}
	if b := st.Binding(); b != "memory_bandwidth" {
		t.Errorf("batch-1 decode bound by %s, want memory_bandwidth (the GEMMs stream the weights)", b)
	}
}

// A TP all-reduce across nodes puts the ring's bytes through each node's
// NICs once (one ring crossing per channel, channels spread over the
// NICs), not once per GPU of the node: issue #28's Llama-405B TP16 over
// 8 × 400G InfiniBand spent 1.2 s of a 2K-token prefill in all-reduces,
// eight times a hand count.
func TestCrossNodeAllReduceCountsNodeBytesOnce(t *testing.T) {
	defer func(v bool) { UseNCCLCrossNodeLatency = v }(UseNCCLCrossNodeLatency)
	UseNCCLCrossNodeLatency = false // the link model's bytes (TestNCCLCrossNodeInTPAllReduce: the switch on)
	eff := DefaultEfficiency
	hw := NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 2, 400, 8, 5)
	s := StepSetup{Model: perfModel(t, "llama-3.1-405b"), HW: hw, TP: 16, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
	sm := NewStepModel(s)
	msg := 2048 * sm.hidden * 2
	ring := RingAllReduceBytes(msg, 16)
	want := max(ring/(hw.InterBytesPerSPerNode*eff.Link), ring/(hw.IntraBytesPerS*eff.Link)) + 2*2*hw.InterLatencyS + eff.CollectiveS
	if got := sm.tpAllReduce(msg); !perfNear(got, want, 1e-9) {
		t.Fatalf("all-reduce of %.0f MB over TP16 on 2 nodes: %.3f ms, want %.3f ms", msg/1e6, got*1e3, want*1e3)
	}
	st := sm.prefillChunk(0, 2048, true)
	if st.TPS > 0.4 {
		t.Errorf("a 2K prefill's all-reduces take %.2f s on TP16 over 8 × 400G per node; by hand ≈0.15 s", st.TPS)
	}
}

// Measured kernel figures replace the fitted ones only on the GPUs the
// tables cover; a calibration file still sets what it fits.
func TestMeasuredKernelsWhereCovered(t *testing.T) {
	h100 := perfGPU(t, "h100-sxm")
	e := ForGPU(DefaultEfficiency, h100)
	c, m := DefaultEfficiency.MeasuredCompute, DefaultEfficiency.MeasuredHBM
	if !perfNear(e.GEMM, 0.84*c, 1e-12) || !perfNear(e.GEMMFP8, 0.56*c, 1e-12) || !perfNear(e.HBM, 0.89*m, 1e-12) || e.KernelGapS != 2.45e-6 || e.Kernels.Source() == "" {
		t.Errorf("H100: GEMM %.3f fp8 %.3f HBM %.3f gap %.3g source %q; want the aiconfigurator figures × the fitted shares", e.GEMM, e.GEMMFP8, e.HBM, e.KernelGapS, e.Kernels.Source())
	}
	if e.StepOverheadS != DefaultEfficiency.StepOverheadS || e.ExpertGEMM != DefaultEfficiency.ExpertGEMM {
		t.Errorf("host and fused-MoE constants must stay the fitted ones")
	}
	for _, id := range []string{"h20-96g", "h800", "mi300x"} {
		if _, cited := citedKernels(perfGPU(t, id)); cited {
			continue // cited figures, not tables: TestH20CitedFigures
		}
		if _, shared := sharedDieKernels(perfGPU(t, id)); shared {
			continue // another GPU's tables: TestH800SharesH100Tables
		}
		if got := ForGPU(DefaultEfficiency, perfGPU(t, id)); got != DefaultEfficiency {
			t.Errorf("%s has no measured kernels: its constants must be the fitted ones", id)
		}
	}
	custom := *h100
	custom.ID = ""
	if got := ForGPU(DefaultEfficiency, &custom); got != DefaultEfficiency {
		t.Errorf("a custom GPU has no measured kernels")
	}
	if got := ForGPU(DefaultEfficiency, (*catalog.GPU)(nil)); got != DefaultEfficiency {
		t.Errorf("no GPU: the fitted constants")
	}
}

// Prefill attention's efficiency follows the measured curve by the span a
// chunk attends to, flat outside 1–16 Ki tokens.
func TestPrefillAttentionCurve(t *testing.T) {
	e := ForGPU(DefaultEfficiency, perfGPU(t, "h100-sxm"))
	e.MeasuredCompute = 1 // the curve as measured
	for _, c := range []struct{ n, want float64 }{{100, 0.24}, {1024, 0.24}, {2048, 0.39}, {3 * 1024, (0.39 + 0.53) / 2 * 0}, {16384, 0.67}, {1 << 20, 0.67}} {
		got := e.prefillAttnEff(c.n)
		if c.want == 0 { // between 2 and 4 Ki: between the two figures
			if got <= 0.39 || got >= 0.53 {
				t.Errorf("span %.0f: %.3f, want between 0.39 and 0.53", c.n, got)
			}
			continue
		}
		if math.Abs(got-c.want) > 1e-9 {
			t.Errorf("span %.0f: %.3f, want %.3f", c.n, got, c.want)
		}
	}
	if got := DefaultEfficiency.prefillAttnEff(4096); got != DefaultEfficiency.Attention {
		t.Errorf("without a curve: %.3f, want the fitted attention %.3f", got, DefaultEfficiency.Attention)
	}
}

// An idle prefill's reported terms add up to its TTFT.
func TestPrefillTermsAddUp(t *testing.T) {
	for _, model := range []string{"llama-3.1-8b", "deepseek-v3"} {
		g := perfGPU(t, "h200")
		s := StepSetup{Model: perfModel(t, model), HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
			WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: ForGPU(DefaultEfficiency, g)}
		pf := NewStepModel(s).PrefillIdle(8192+100, 8192)
		if sum := pf.GPUS + pf.KernelGapsS + pf.NetworkS + pf.HostS; !perfNear(sum, pf.TTFTS, 1e-9) {
			t.Errorf("%s: GPU %.4g + gaps %.4g + network %.4g + host %.4g = %.6g s, TTFT %.6g s", model, pf.GPUS, pf.KernelGapsS, pf.NetworkS, pf.HostS, sum, pf.TTFTS)
		}
	}
}
