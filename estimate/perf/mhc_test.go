package perf

import (
	"math"
	"testing"
)

// TestDeepseekV4HyperConnectionsWork: DeepSeek-V4-Flash (hc_mult 4, hidden
// 4,096, 43 layers: 86 mHC blocks per stage) by hand, per token:
//
//	mixing GEMM: 2 × 24 mixes × (4 × 4,096) = 786,432 FLOPs per block
//	above 16 tokens: (4·4 + 2) × 4,096 BF16 values = 147,456 B per block
//	  (post: streams and x in, streams out; GEMM: streams in; big_fuse:
//	  streams in, layer input out), plus float32 mixes
//	  4 × (2 × (4 + 16) + 2 × (24 + 1)) = 360 B
//	at 16 tokens or fewer: (3·4 + 2) × 4,096 × 2 = 114,688 B + 360 B
//	outside the layers: repeat, MTP copy, hc_head, (4·4 + 2) × 4,096 × 2
//
// An 8,192-token prefill chunk: 554 GFLOPs and 105.4 GB, ≈ 31 ms of HBM at
// an H100's 3.35 TB/s against 1.1 ms of TF32 (494.7 TFLOPS): memory-bound.
func TestDeepseekV4HyperConnectionsWork(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	c := newMHCShape(m, 1)
	if c == nil || c.blocks != 86 {
		t.Fatalf("Flash mHC shape %+v, want 86 blocks", c)
	}
	stage := 2 * 18 * 4096.0
	for _, tt := range []struct {
		tokens, block float64
	}{
		{8192, 147456 + 360},
		{17, 147456 + 360},
		{16, 114688 + 360},
		{1, 114688 + 360},
	} {
		f, b := c.work(tt.tokens)
		if want := tt.tokens * 86 * 786432; math.Abs(f/want-1) > 1e-12 {
			t.Errorf("%v tokens: %.6g FLOPs, hand %.6g", tt.tokens, f, want)
		}
		if want := tt.tokens * (86*tt.block + stage); math.Abs(b/want-1) > 1e-12 {
			t.Errorf("%v tokens: %.6g B, hand %.6g", tt.tokens, b, want)
		}
	}
	// Half a model per stage under PP 2.
	if h := newMHCShape(m, 2); h.blocks != 43 {
		t.Errorf("PP 2: %v blocks per stage, want 43", h.blocks)
	}

	g := perfGPU(t, "h100-sxm")
	sm := NewStepModel(StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1, EP: true,
		WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff})
	var st StepTime
	got := sm.mhcTime(8192, &st)
	f, b := c.work(8192)
	mem, comp := b/(g.HBMBandwidthGBytesPerS*1e9), f/(g.BF16TFLOPS*1e12/2)
	if st.ComputeBoundS != 0 || math.Abs(got/mem-1) > 1e-12 || comp > mem/10 {
		t.Errorf("8,192 tokens: mHC %.2f ms (compute %.2f, memory %.2f; bound %+v), want memory-bound at %.2f ms", got*1e3, comp*1e3, mem*1e3, st, mem*1e3)
	}
	if mem < 0.025 || mem > 0.04 {
		t.Errorf("8,192 tokens: mHC streams %.1f ms at the datasheet bandwidth, hand ≈ 31", mem*1e3)
	}
}

// TestDeepseekV4HyperConnectionsInTheStep: the mHC time is part of a
// DeepSeek-V4 step (in its dense term) and its kernels are in the census —
// per layer two blocks of two kernels (mhc_fused, big_fuse at CUDA-graph
// batch sizes), per stage the closing post, the embedding's repeat, the MTP
// copy and hc_head: 43 × 4 + 4 = 176 for Flash. A model without
// hyper-connections has neither.
func TestDeepseekV4HyperConnectionsInTheStep(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	hw := NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 2, 0, 0, 0)
	s := StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, EP: true, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff}
	sm := NewStepModel(s)
	bare, d := *m, *m.DSV4
	d.HCMult = 0
	bare.DSV4 = &d
	mhcKernels := (eagerLayers(m, "fp8") - eagerLayers(&bare, "fp8")) * eagerOpsRef
	if math.Abs(mhcKernels-43*4) > 1e-9 || sm.kernels != stageKernels(sm.eagerLayers)+mhcStageKernels {
		t.Errorf("mHC kernels per step: %v in the layers (want 172), census %v, stage %v", mhcKernels, sm.kernels, stageKernels(sm.eagerLayers))
	}

	without := NewStepModel(s)
	without.mhc = nil
	l := RankLoad{PrefillTokens: 8192, PrefillPairs: 8192 * (8192 + 8193.0/2), PrefillPrefix: 8192, PrefillSeqs: 1}
	withT, withoutT := sm.StepUniform(l), without.StepUniform(l)
	if d, want := withT.DenseS-withoutT.DenseS, sm.mhcTime(8192, nil); want <= 0 || math.Abs(d/want-1) > 1e-9 {
		t.Errorf("prefill chunk: the step's dense term grows by %.3f ms, the mHC term is %.3f ms", d*1e3, want*1e3)
	}

	other := perfModel(t, "deepseek-v3")
	om := NewStepModel(StepSetup{Model: other, HW: hw, TP: 8, PP: 1, DP: 1, EP: true, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff})
	// Its stage runs the census and, without a measured attention call,
	// the KV writes (kvwrite.go).
	if om.mhc != nil || om.mhcTime(8192, nil) != 0 || om.kernels != stageKernels(om.eagerLayers)+kvWriteKernels(other, &om.S, om.attnLayers) || mhcKernelsPerLayer(other) != 0 {
		t.Errorf("DeepSeek-V3 has no hyper-connections: mHC %+v, kernels %v", om.mhc, om.kernels)
	}
}

// TestDeepseekV4PipelineHandsOnStreams: between pipeline stages DeepSeek-V4
// sends its 4 residual streams, 4 × 4,096 BF16 values per token, where a
// model without hyper-connections sends one hidden state.
func TestDeepseekV4PipelineHandsOnStreams(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	hw := NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 2, 0, 0, 0)
	s := StepSetup{Model: m, HW: hw, TP: 4, PP: 2, DP: 1, EP: true, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff}
	sm := NewStepModel(s)
	l := RankLoad{PrefillTokens: 8192, PrefillPairs: 8192 * 8193.0 / 2, PrefillSeqs: 1}
	st := sm.StepUniform(l)
	// One micro-batch of half the tokens crosses one boundary, twice; on
	// one node the multiprocess executor's send_tensor_dict sends each TP
	// rank's quarter of the one tensor over NVLink, and the receiver
	// all-gathers it over TP 4 (pphandoff.go).
	whole := 4096.0 * 4096 * 2 * 4
	want := 2 * (LinkTime(whole/4, hw.IntraBytesPerS, idealEff.Link, 1, hw.IntraLatencyS) + sm.tpAllGather(whole))
	if math.Abs(st.PPS/want-1) > 1e-9 {
		t.Errorf("PP hand-offs %.4g s, want %.4g s (4 streams of 4,096 BF16 values per token)", st.PPS, want)
	}
}

// TestMHCCallFloor: with the floor on, DeepSeek-V4-Flash's mHC at one token
// is at least 43 layers × 2 boundaries × (20.2 µs − 2 kernel gaps), by hand
// 86 × (20.2 − 2 × 2.45) µs = 1.316 ms on an H100's measured gap; off, or
// above 16 tokens, the roofline alone.
func TestMHCCallFloor(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	hw := NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 2, 0, 0, 0)
	eff := idealEff
	eff.KernelGapS = 2.45e-6
	sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, EP: true, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: eff})
	saved := UseMHCCallFloor
	defer func() { UseMHCCallFloor = saved }()
	UseMHCCallFloor = false
	off1, off64 := sm.mhcTime(1, nil), sm.mhcTime(64, nil)
	UseMHCCallFloor = true
	on1, on64 := sm.mhcTime(1, nil), sm.mhcTime(64, nil)
	want := 86 * (20.2 - 2*2.45) * 1e-6
	if math.Abs(on1-want) > 1e-9 || off1 >= want {
		t.Errorf("one token: mHC %.3f ms on (want %.3f), %.3f ms off (the bytes' roofline, below it)", on1*1e3, want*1e3, off1*1e3)
	}
	if on64 != off64 {
		t.Errorf("64 tokens: the floor applies only up to 16 tokens (%.3f vs %.3f ms)", on64*1e3, off64*1e3)
	}
}
