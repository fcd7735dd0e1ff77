package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

func perfModel(t testing.TB, id string) *catalog.Model {
	t.Helper()
	m, err := catalog.LookupModel(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// hfFixture is a Hugging Face config.json of catalog/testdata/hf (name
// without the directory), loaded as a user's model.config is.
func hfFixture(t testing.TB, name string) *catalog.Model {
	t.Helper()
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func perfGPU(t testing.TB, id string) *catalog.GPU {
	t.Helper()
	g, err := catalog.LookupGPU(id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// idealEff removes every efficiency and overhead so a test can check the
// physics by hand.
var idealEff = Efficiency{GEMM: 1, ExpertGEMM: 1, Attention: 1, HBM: 1, Link: 1}

// A single dense model on one GPU decoding one short sequence is bound by
// reading its weights: step ≈ weight bytes / HBM bandwidth.
func TestPerfDenseDecodeIsWeightRead(t *testing.T) {
	m := perfModel(t, "llama-3.1-8b")
	g := perfGPU(t, "h100-sxm")
	sm := NewStepModel(StepSetup{Model: m, HW: NewHardware(g, 1, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: idealEff})
	st := sm.StepUniform(RankLoad{DecodeSeqs: 1, DecodeCtx: 16})
	p := m.ParamCounts()
	want := (p.Total - p.Embedding) * 2 / (g.HBMBandwidthGBytesPerS * 1e9)
	if !perfNear(st.TotalS, want, 0.02) {
		t.Fatalf("decode step %.3f ms, want ≈ weights/bandwidth %.3f ms", st.TotalS*1e3, want*1e3)
	}
	if st.Binding() != "memory_bandwidth" {
		t.Fatalf("binding %s", st.Binding())
	}
}

// A large prefill on the same GPU is compute-bound: ≈ 2 × params × tokens /
// peak plus the quadratic attention.
func TestPerfDensePrefillIsCompute(t *testing.T) {
	m := perfModel(t, "llama-3.1-8b")
	g := perfGPU(t, "h100-sxm")
	sm := NewStepModel(StepSetup{Model: m, HW: NewHardware(g, 1, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: idealEff})
	n := 8192.0
	st := sm.StepUniform(RankLoad{PrefillTokens: n, PrefillPairs: n * (n + 1) / 2, PrefillSeqs: 1})
	p := m.ParamCounts()
	lin := 2 * n * (p.Total - p.Embedding - p.LMHead)
	want := (lin + 2*p.LMHead + AttentionPrefillFLOPs(m, n)) / (g.BF16TFLOPS * 1e12)
	if !perfNear(st.TotalS, want, 0.03) || st.Binding() != "compute" {
		t.Fatalf("prefill %.2f ms (%s), want ≈ %.2f ms compute", st.TotalS*1e3, st.Binding(), want*1e3)
	}
}

// An all-to-all over a slow inter-node link scales linearly with its bytes:
// doubling the tokens doubles the bandwidth part.
func TestPerfAllToAllScalesWithBytes(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	g := perfGPU(t, "h20-96g")
	for _, mode := range []vllm.Traffic{vllm.TrafficPerNode, vllm.TrafficPerExpert, vllm.TrafficGather} {
		sm := NewStepModel(StepSetup{Model: m, HW: NewHardware(g, 8, 450, 0, 25, 1, 0), TP: 1, PP: 1, DP: 32, EP: true,
			WeightDType: "fp8", KVDType: "bf16", A2A: mode, FP8Dispatch: true, CUDAGraphs: true, Eff: idealEff})
		a := sm.StepUniform(RankLoad{DecodeSeqs: 4, DecodeCtx: 4 * 100})
		b := sm.StepUniform(RankLoad{DecodeSeqs: 8, DecodeCtx: 8 * 100})
		if !perfNear(b.A2AS, 2*a.A2AS, 1e-9) || !perfNear(b.InterBytesPerNode, 2*a.InterBytesPerNode, 1e-9) {
			t.Fatalf("%s: a2a %.3g → %.3g s, not linear", mode, a.A2AS, b.A2AS)
		}
		// Hand check of the bandwidth term at 25 Gbit/s for one node.
		want := a.InterBytesPerNode / (25e9 / 8)
		if !perfNear(a.A2AS, want, 1e-6) {
			t.Fatalf("%s: a2a %.4g s, want bytes/bandwidth %.4g s", mode, a.A2AS, want)
		}
	}
}

// Ring all-reduce: each GPU sends 2(n−1)/n of the message.
func TestPerfRingAllReduceBytes(t *testing.T) {
	if got := RingAllReduceBytes(1e6, 4); got != 1.5e6 {
		t.Fatalf("4 ranks: %v", got)
	}
	if RingAllReduceBytes(1e6, 1) != 0 {
		t.Fatal("one rank sends nothing")
	}
}

// Expert weights read per step follow E_local × (1 − (1 − k/E)^T): one
// token on one GPU holding every expert reads exactly k experts; many
// tokens read them all.
func TestPerfExpertsHit(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	g := perfGPU(t, "h200")
	sm := NewStepModel(StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 1,
		WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: idealEff})
	one := sm.StepUniform(RankLoad{DecodeSeqs: 1, DecodeCtx: 1})
	p := m.ParamCounts()
	want := 8 * p.ExpertPerLayerEach * perfBytesPerParam("fp8") * float64(m.MoELayerCount()) / (g.HBMBandwidthGBytesPerS * 1e9)
	if !perfNear(one.ExpertS, want, 0.01) {
		t.Fatalf("one token reads %.3f ms of experts, want k experts = %.3f ms", one.ExpertS*1e3, want*1e3)
	}
	many := sm.StepUniform(RankLoad{DecodeSeqs: 4096, DecodeCtx: 4096})
	all := p.RoutedExperts * perfBytesPerParam("fp8") / (g.HBMBandwidthGBytesPerS * 1e9)
	if many.MemoryS < all {
		t.Fatalf("4096 tokens should read all experts: memory %.1f ms < %.1f ms", many.MemoryS*1e3, all*1e3)
	}
}

// DBO overlaps the all-to-all with compute (two micro-batches: the longer
// side plus half the shorter), only at or above vLLM's token threshold.
func TestPerfDBOOverlap(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	g := perfGPU(t, "h20-96g")
	setup := StepSetup{Model: m, HW: NewHardware(g, 8, 450, 0, 25, 1, 0), TP: 1, PP: 1, DP: 32, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficPerExpert, FP8Dispatch: true, CUDAGraphs: true, Eff: idealEff}
	off := NewStepModel(setup)
	setup.DBO = true
	on := NewStepModel(setup)
	for _, seqs := range []float64{64, 8} {
		l := RankLoad{DecodeSeqs: seqs, DecodeCtx: seqs * 1000}
		a, b := off.StepUniform(l), on.StepUniform(l)
		roofline := a.DenseS + a.ExpertS + a.AttentionS
		want := roofline + a.A2AS
		if seqs >= dboDecodeTokenThreshold {
			want = max(roofline, a.A2AS) + min(roofline, a.A2AS)/2
		}
		if !perfNear(b.TotalS-b.OverheadS, want, 1e-9) || !perfNear(a.TotalS-a.OverheadS, roofline+a.A2AS, 1e-9) {
			t.Fatalf("%v seqs: DBO step %.2f ms, want %.2f ms", seqs, (b.TotalS-b.OverheadS)*1e3, want*1e3)
		}
	}
}

// The DBO thresholds are vLLM's flag defaults; a table entry without one
// would silently make DBO overlap every step.
func TestDBOThresholdsFromVLLM(t *testing.T) {
	if !(dboDecodeTokenThreshold > 0 && dboPrefillTokenThreshold > dboDecodeTokenThreshold) {
		t.Errorf("DBO thresholds %v / %v: want positive defaults, prefill above decode", dboDecodeTokenThreshold, dboPrefillTokenThreshold)
	}
}
