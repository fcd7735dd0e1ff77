package perf

import (
	"math"
	"testing"
)

// TestDCPDecodeReadsAndCollectives: DeepSeek-V3 at TP 8 on H200 decoding
// 64 sequences of 8,192 cached tokens, with decode context parallelism 8
// against none (vllm.DCPCommSource), by hand:
//
//	KV read: 61 layers × 524,288 cached tokens × 1,152 B (BF16 latent,
//	512 + 64) per GPU without DCP; with DCP 8 each GPU reads 1/8 of it,
//	so the step reads 61 × 524,288 × 1,152 × 7/8 B less.
//	Per attention layer, 64 decode tokens, the group's 128 heads:
//	  all-gather of the queries: 64 × 128 × 576 × 2 B = 9,437,184 B
//	  all-gather of the LSE:     8 × 64 × 128 × 4 B   =   262,144 B
//	  reduce-scatter of outputs: 64 × 128 × 512 × 2 B = 8,388,608 B
//	each moving 7/8 of its size per GPU over NVLink (no measured NCCL
//	figures with idealEff): 15,826,944 B / NVLink + 3 × (2 × 2 µs latency).
func TestDCPDecodeReadsAndCollectives(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	g := perfGPU(t, "h200")
	hw := NewHardware(g, 8, 0, 2, 0, 0, 0)
	setup := func(dcp int) *StepModel {
		return NewStepModel(StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: idealEff, DCP: dcp})
	}
	one, eight := setup(1), setup(8)
	l := RankLoad{DecodeSeqs: 64, DecodeCtx: 64 * 8192}
	if one.kvBytesTokLayer != 1152 {
		t.Fatalf("KV bytes per token and layer %.0f, want 1,152", one.kvBytesTokLayer)
	}
	if got, want := one.kvBytes(l)-eight.kvBytes(l), 61*524288*1152*7.0/8; math.Abs(got/want-1) > 1e-12 {
		t.Errorf("KV read saved by DCP 8: %.6g B, want %.6g", got, want)
	}
	if got := one.StepUniform(l).DCPS; got != 0 {
		t.Errorf("DCP 1: collectives %.3g s, want none", got)
	}
	bus := 7.0 / 8 * (9437184 + 262144 + 8388608)
	want := 61 * (bus/hw.IntraBytesPerS + 3*2*hw.IntraLatencyS)
	st := eight.StepUniform(l)
	if math.Abs(st.DCPS/want-1) > 1e-12 {
		t.Errorf("DCP 8 collectives %.6g s, want %.6g (61 layers × %.0f B over NVLink + latencies)", st.DCPS, want, bus)
	}
	// Attention's FLOPs are the same (8× the heads over 1/8 of the tokens),
	// and a prefill-only step has no DCP traffic.
	if a, b := one.attnFLOPs(l, true), eight.attnFLOPs(l, true); a != b {
		t.Errorf("decode attention FLOPs %.6g vs %.6g: DCP must not change them", a, b)
	}
	if got := eight.StepUniform(RankLoad{PrefillTokens: 4096, PrefillPairs: 4096 * 2048, PrefillSeqs: 1}).DCPS; got != 0 {
		t.Errorf("prefill-only step: DCP collectives %.3g s, want none", got)
	}
}
