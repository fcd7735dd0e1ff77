package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/vllm"
)

// hostEff has only host costs, so a test reads them off the step.
var hostEff = Efficiency{GEMM: 1, ExpertGEMM: 1, Attention: 1, HBM: 1, Link: 1, StepOverheadS: 1e-3, EagerPerLayerS: 1e-3, LargeStepPerLayerS: 0.5e-3}

func deepSeekTP8(t *testing.T, eff Efficiency) StepSetup {
	return StepSetup{Model: perfModel(t, "deepseek-v3"), HW: NewHardware(perfGPU(t, "h200"), 8, 0, 2, 0, 0, 0), TP: 8, PP: 1, DP: 1,
		WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
}

// An eager step launches its kernels while the GPU runs the ones already
// launched: a small step costs the launches, a large one the GPU's work,
// and the host's work between steps adds to either.
func TestEagerLaunchOverlapsGPU(t *testing.T) {
	s := deepSeekTP8(t, hostEff)
	s.EnforceEager, s.CUDAGraphs = true, false
	sm := NewStepModel(s)
	small := sm.StepUniform(RankLoad{DecodeSeqs: 1, DecodeCtx: 100})
	launch := hostEff.EagerPerLayerS * sm.eagerLayers
	if !perfNear(small.TotalS, hostEff.StepOverheadS+launch, 1e-9) {
		t.Fatalf("small eager step %.2f ms, want overhead + launches %.2f ms", small.TotalS*1e3, (hostEff.StepOverheadS+launch)*1e3)
	}
	big := sm.StepUniform(RankLoad{PrefillTokens: 65536, PrefillPairs: 65536 * 65537 / 2, PrefillSeqs: 8})
	gpu := big.TotalS - big.OverheadS
	if gpu <= launch || !perfNear(big.OverheadS, hostEff.StepOverheadS, 1e-9) {
		t.Fatalf("large eager step: GPU %.1f ms, overhead %.2f ms; the launches (%.1f ms) should hide behind the GPU", gpu*1e3, big.OverheadS*1e3, launch*1e3)
	}
}

// With the host's work overlapped (async scheduling, SGLang's overlap
// scheduler) a step is the longer of host and GPU, not their sum.
func TestOverlapHostIsMax(t *testing.T) {
	s := deepSeekTP8(t, hostEff)
	l := RankLoad{DecodeSeqs: 64, DecodeCtx: 64 * 1000}
	plain := NewStepModel(s).StepUniform(l)
	s.OverlapHost = true
	over := NewStepModel(s).StepUniform(l)
	gpu := plain.TotalS - plain.OverheadS
	if !perfNear(over.TotalS, max(gpu, hostEff.StepOverheadS), 1e-9) || over.TotalS >= plain.TotalS {
		t.Fatalf("overlapped %.2f ms, plain %.2f ms, GPU %.2f ms", over.TotalS*1e3, plain.TotalS*1e3, gpu*1e3)
	}
}

// Layers of more operations cost more launches: a DeepSeek MLA + MoE layer
// with FP8 weights is about three dense GQA layers.
func TestEagerLayersByStructure(t *testing.T) {
	ds := eagerLayers(perfModel(t, "deepseek-v3"), "fp8") / 61
	ll := eagerLayers(perfModel(t, "llama-3.1-8b"), "bf16") / 32
	if !perfNear(ll, 1, 1e-9) || ds < 2.5 || ds > 4 {
		t.Fatalf("per-layer launch weight: DeepSeek FP8 %.2f, Llama BF16 %.2f", ds, ll)
	}
}

// DeepEP's fixed latency is paid twice (dispatch, combine) per MoE layer.
func TestA2AFixedLatencyPerPhase(t *testing.T) {
	s := StepSetup{Model: perfModel(t, "deepseek-v3"), HW: NewHardware(perfGPU(t, "h20-96g"), 8, 450, 2, 400, 8, 2), TP: 1, PP: 1, DP: 32, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficPerExpert, FP8Dispatch: true, CUDAGraphs: true, Eff: idealEff}
	l := RankLoad{DecodeSeqs: 1, DecodeCtx: 100}
	a := NewStepModel(s).StepUniform(l).A2AS
	s.A2AFixedS = vllm.A2AFixedLatency(s.A2A, true, s.EPSize()).FixedS
	b := NewStepModel(s).StepUniform(l).A2AS
	want := 2 * 58 * s.A2AFixedS
	if !perfNear(b-a, want, 1e-9) {
		t.Fatalf("fixed latency adds %.2f ms per step, want %.2f ms", (b-a)*1e3, want*1e3)
	}
}

// With DBO each micro-batch calls its own dispatch and combine, so a MoE
// layer pays DeepEP's fixed part four times, not twice. Hand count, against
// DeepEP's low-latency table (docs/legacy.md at deepseek-ai/DeepEP 0297fc8:
// H800, one CX7 400 Gb/s NIC per GPU, EP 32, 128 tokens per rank: dispatch
// 155 µs, combine 273 µs): DeepSeek-V3 on 4 × 8 GPUs at 512 tokens per
// rank, split by DBO into two micro-batches of 256. Each token sends 6 of
// its 8 expert copies to other nodes (group-limited routing: 2 of its 8
// experts on its own node); a copy is 7168 × (1 + 4/128) B of FP8 + scales
// out and 7168 × 2 B of BF16 back. The table's phases at 256 tokens are its
// 128-token latencies plus 128 more tokens' NIC bytes at 50 GB/s
// (dispatch 155 + 128·6·7408 B / 50 GB/s = 268.8 µs, combine 273 +
// 128·6·14336 B / 50 GB/s = 493.2 µs), twice per layer (one per
// micro-batch) over 58 MoE layers: 88.4 ms. The model at ideal link
// efficiency: 534 MB per node per layer over 400 GB/s (1.335 ms) + 4 ×
// 46.1 µs fixed = 1.519 ms, 88.1 ms a step; counting the fixed part once per
// phase gave 82.8 ms (−6%).
func TestA2ADBOPaysFixedPerMicroBatch(t *testing.T) {
	s := StepSetup{Model: perfModel(t, "deepseek-v3"), HW: NewHardware(perfGPU(t, "h200"), 8, 160, 0, 400, 8, 0), TP: 1, PP: 1, DP: 32, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficPerExpert, FP8Dispatch: true, CUDAGraphs: true, DBO: true, Eff: idealEff}
	s.A2AFixedS = vllm.A2AFixedLatency(s.A2A, true, s.EPSize()).FixedS
	l := RankLoad{DecodeSeqs: 512, DecodeCtx: 512 * 257}
	on := NewStepModel(s).StepUniform(l).A2AS
	s.DBO = false
	off := NewStepModel(s).StepUniform(l).A2AS
	if want := 2 * 58 * s.A2AFixedS; !perfNear(on-off, want, 1e-9) {
		t.Fatalf("DBO adds %.2f ms of all-to-all, want the two extra calls' fixed part %.2f ms", (on-off)*1e3, want*1e3)
	}
	phase := func(table, perCopy float64) float64 { return table + 128*6*perCopy/50e9 }
	deepEP := 58 * 2 * (phase(155e-6, 7408) + phase(273e-6, 14336))
	if !perfNear(on, deepEP, 0.02) {
		t.Fatalf("DBO step's all-to-all %.2f ms, DeepEP's table gives %.2f ms", on*1e3, deepEP*1e3)
	}
}

// An idle DP rank makes a lock-step MoE step run without graphs where the
// release does so (vLLM #23752); a step with every rank busy does not.
func TestIdleRankRunsWithoutGraphs(t *testing.T) {
	s := StepSetup{Model: perfModel(t, "deepseek-v3"), HW: NewHardware(perfGPU(t, "b200"), 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 8, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficGather, CUDAGraphs: true, IdleRanksSlow: true, Eff: hostEff}
	sm := NewStepModel(s)
	busy := make([]RankLoad, 8)
	for i := range busy {
		busy[i] = RankLoad{DecodeSeqs: 1, DecodeCtx: 100}
	}
	full := sm.Step(busy).TotalS
	busy[7] = RankLoad{}
	idle := sm.Step(busy).TotalS
	launch := hostEff.EagerPerLayerS * sm.eagerLayers
	if full >= launch || !perfNear(idle, hostEff.StepOverheadS+launch, 1e-9) {
		t.Fatalf("step %.2f ms with every rank busy, %.2f ms with one idle; want the launches %.2f ms to set the latter",
			full*1e3, idle*1e3, launch*1e3)
	}
}

// TP-sharded experts move every pair's activations on every GPU; whole
// experts under EP move only the pairs routed to the GPU.
func TestShardedExpertActivationTraffic(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	tp := StepSetup{Model: m, TP: 8, DP: 1, WeightDType: "fp8"}
	ep := StepSetup{Model: m, TP: 1, DP: 8, EP: true, WeightDType: "fp8"}
	h, i := float64(m.HiddenSize), float64(m.MoEIntermediateSize)
	if got, want := moeActBytesPerPair(m, &tp), 5*h+14*i/8; !perfNear(got, want, 1e-9) {
		t.Fatalf("TP-sharded bytes per pair %.0f, want %.0f", got, want)
	}
	if got, want := moeActBytesPerPair(m, &ep), 3*h+14*i; !perfNear(got, want, 1e-9) {
		t.Fatalf("EP bytes per pair %.0f, want %.0f", got, want)
	}
}

// A prefill step above vLLM's default capture ceiling runs without a graph
// unless the setup captures that size (--max-cudagraph-capture-size).
func TestCaptureCeilingFromSetup(t *testing.T) {
	s := deepSeekTP8(t, hostEff)
	l := RankLoad{PrefillTokens: 1024, PrefillPairs: 1024 * 1025 / 2, PrefillSeqs: 1}
	def := NewStepModel(s).StepUniform(l)
	s.MaxCaptureTokens = 2048
	big := NewStepModel(s).StepUniform(l)
	if def.OverheadS <= big.OverheadS || !perfNear(big.OverheadS, hostEff.StepOverheadS+hostEff.StepPerSeqS, 1e-9) {
		t.Fatalf("1024-token step: host %.2f ms at the default ceiling, %.2f ms with 2048 captured", def.OverheadS*1e3, big.OverheadS*1e3)
	}
}

// A step never gets cheaper for carrying more work: prompt tokens added to
// a decode step, with CUDA graphs on, off for the backend, and eager. (With
// graphs off, a step past the capture ceiling was charged the cheaper
// launches of a compiled large step: a DBO DeepEP decode step fell from 120
// to 91 ms when 500 prompt tokens joined it.)
func TestStepGrowsWithItsLoad(t *testing.T) {
	for _, c := range []struct {
		name          string
		graphs, eager bool
	}{{"graphs", true, false}, {"no graphs", false, false}, {"eager", false, true}} {
		s := deepSeekTP8(t, DefaultEfficiency)
		s.CUDAGraphs, s.EnforceEager = c.graphs, c.eager
		sm := NewStepModel(s)
		prev := 0.0
		for _, pre := range []float64{0, 64, 256, 500, 1000, 2048, 8192} {
			st := sm.StepUniform(RankLoad{DecodeSeqs: 256, DecodeCtx: 256 * 2500, PrefillTokens: pre, PrefillPairs: pre * (pre + 1) / 2, PrefillSeqs: min(1, pre)})
			if st.TotalS < prev*(1-1e-9) {
				t.Errorf("%s: 256 decodes + %.0f prompt tokens take %.1f ms, less than %.1f ms with fewer", c.name, pre, st.TotalS*1e3, prev*1e3)
			}
			prev = st.TotalS
		}
	}
}

// A dense model's 4-bit checkpoint streams its linears at 4 bits; a MoE
// model's keeps attention and dense layers at 16 (only the experts are
// quantized), and INT4 is no longer read as 2 bytes per weight.
func TestFourBitWeightsStream(t *testing.T) {
	dense := StepSetup{Model: perfModel(t, "llama-3.1-8b"), HW: NewHardware(perfGPU(t, "h100-sxm"), 1, 0, 0, 0, 0, 0), TP: 1, PP: 1, DP: 1, KVDType: "bf16", Eff: DefaultEfficiency}
	for _, dt := range []string{"int4", "nvfp4", "mxfp4"} {
		d := dense
		d.WeightDType = dt
		if r := d.denseBytesPerParam(); r > 0.6 {
			t.Errorf("dense %s: %.2f bytes per weight", dt, r)
		}
		moe := deepSeekTP8(t, DefaultEfficiency)
		moe.WeightDType = dt
		if r := moe.denseBytesPerParam(); r != 2 {
			t.Errorf("MoE %s: attention and dense layers at %.2f bytes, want 2 (experts only quantized)", dt, r)
		}
	}
	if b := perfBytesPerParam("int4"); b < 0.5 || b > 0.6 {
		t.Errorf("int4: %.3f bytes per weight", b)
	}
}

// The release's async default schedules ahead (the simulation's admission
// lag) and, since session 40 (UseAsyncOverlap on), overlaps the host's work
// with the GPU's in the step model as an explicit --async-scheduling does;
// with UseAsyncOverlap off it would not. --no-async-scheduling after it
// turns both off (the last flag wins).
func TestAsyncDefaultOverlapsHost(t *testing.T) {
	in := testinput.Example(t, "qwen3-30b-a3b-1xh100")
	if on, _ := in.Release().AsyncSchedulingByDefault(); on != vllm.Present {
		t.Fatalf("the example's vLLM %s should schedule asynchronously by default", in.VLLMVersion)
	}
	if !AsyncScheduling(&in) || SetupFromInput(&in).OverlapHost != UseAsyncOverlap {
		t.Fatalf("release default: schedules ahead %v (want true), host overlapped %v (want %v)", AsyncScheduling(&in), SetupFromInput(&in).OverlapHost, UseAsyncOverlap)
	}
	defer func(o bool) { UseAsyncOverlap = o }(UseAsyncOverlap)
	UseAsyncOverlap = false
	if SetupFromInput(&in).OverlapHost {
		t.Fatal("UseAsyncOverlap off: the release default must not overlap the host's work")
	}
	UseAsyncOverlap = true
	d := in.Resolved()
	args := d.Spec.VLLM.ExtraArgs
	d.Spec.VLLM.ExtraArgs = append(append([]string(nil), args...), "--async-scheduling")
	if !SetupFromInput(&in).OverlapHost {
		t.Fatal("--async-scheduling: the host's work should overlap the GPU's")
	}
	d.Spec.VLLM.ExtraArgs = append(d.Spec.VLLM.ExtraArgs, "--no-async-scheduling")
	if SetupFromInput(&in).OverlapHost || AsyncScheduling(&in) {
		t.Fatal("--no-async-scheduling last: neither overlap nor scheduling ahead")
	}
}

// A DP wave's dummy step (every rank runs vLLM's execute_dummy_batch, a
// one-token uniform-decode forward) is the one-sequence decode step under
// the rank's graph mode: from 0.11.0 _dummy_run dispatches it through the
// CUDA-graph dispatcher to the FULL graph captured for one uniform-decode
// token (every rank padded to the most tokens of any: one), so it costs what
// a graphed one-sequence decode step costs, no launches; in 0.10.1–0.10.2
// (IdleRanksSlow) its mode defaulted to NONE and it ran eagerly: the step
// plus the host's launches of every layer (EagerPerLayerS × eagerLayers,
// the host overhead StepOverheadS + one sequence's StepPerSeqS before it;
// hostEff's GPU time is below the launches). With enforce_eager both are
// the eager step.
func TestDummyStepGraphMode(t *testing.T) {
	s := StepSetup{Model: perfModel(t, "deepseek-v3"), HW: NewHardware(perfGPU(t, "b200"), 8, 0, 2, 0, 0, 0), TP: 1, PP: 1, DP: 8, EP: true,
		WeightDType: "fp8", KVDType: "bf16", A2A: vllm.TrafficGather, CUDAGraphs: true, Eff: hostEff}
	ones := make([]RankLoad, 8)
	for i := range ones {
		ones[i] = RankLoad{DecodeSeqs: 1, DecodeCtx: 1}
	}
	runs := []RankRun{{Loads: ones, N: 1}}
	sm := NewStepModel(s)
	graphed, dummy := sm.Step(ones), sm.DummyStepRuns(runs)
	if dummy.TotalS != graphed.TotalS || dummy.LaunchS != 0 {
		t.Fatalf("0.11.0 on: dummy step %.3f ms (launches %.3f ms), want the graphed one-sequence step %.3f ms without launches",
			dummy.TotalS*1e3, dummy.LaunchS*1e3, graphed.TotalS*1e3)
	}
	s.IdleRanksSlow = true
	sm = NewStepModel(s)
	launch := hostEff.EagerPerLayerS * sm.eagerLayers
	busy, eager := sm.Step(ones).TotalS, sm.DummyStepRuns(runs)
	if busy != graphed.TotalS || eager.LaunchS != launch || !perfNear(eager.TotalS, hostEff.StepOverheadS+hostEff.StepPerSeqS+launch, 1e-9) {
		t.Fatalf("0.10.1–0.10.2: busy step %.3f ms (want the graphed %.3f ms), dummy step %.3f ms with launches %.3f ms; want %.3f ms of launches, %.3f ms in all",
			busy*1e3, graphed.TotalS*1e3, eager.TotalS*1e3, eager.LaunchS*1e3, launch*1e3, (hostEff.StepOverheadS+hostEff.StepPerSeqS+launch)*1e3)
	}
	s.IdleRanksSlow, s.CUDAGraphs, s.EnforceEager = false, false, true
	sm = NewStepModel(s)
	if a, b := sm.Step(ones).TotalS, sm.DummyStepRuns(runs).TotalS; a != b || sm.Step(ones).LaunchS == 0 {
		t.Fatalf("enforce_eager: dummy step %.3f ms, one-sequence step %.3f ms; want the same eager step", b*1e3, a*1e3)
	}
}
