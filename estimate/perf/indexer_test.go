package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestSparseAttentionIsBoundedByTopK: DeepSeek-V3.2's attention reads at
// most index_topk cached tokens per query, so at 128K context its attention
// core costs a fraction of V3's; its indexer still scans the whole context,
// so the step keeps growing with the context, more slowly.
func TestSparseAttentionIsBoundedByTopK(t *testing.T) {
	v32, err := catalog.LoadHFConfig("../../catalog/testdata/deepseek-v3.2-reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	v3 := perfModel(t, "deepseek-v3")
	hw := NewHardware(perfGPU(t, "h200"), 8, 0, 2, 0, 0, 0)
	step := func(m *catalog.Model, ctx float64) StepTime {
		sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, Eff: idealEff})
		return sm.StepUniform(RankLoad{DecodeSeqs: 8, DecodeCtx: 8 * ctx})
	}
	long3, long32 := step(v3, 131072), step(v32, 131072)
	if long32.AttentionS > long3.AttentionS/4 {
		t.Errorf("128K attention: V3.2 %.2f ms vs V3 %.2f ms, want a fraction", long32.AttentionS*1e3, long3.AttentionS*1e3)
	}
	short32 := step(v32, 2048)
	if long32.AttentionS <= short32.AttentionS {
		t.Errorf("V3.2 attention does not grow with the context (indexer missing): %.3f ms at 2K, %.3f at 128K", short32.AttentionS*1e3, long32.AttentionS*1e3)
	}
	sm := NewStepModel(StepSetup{Model: v32, HW: hw, TP: 8, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "bf16", Eff: idealEff})
	f, b := sm.indexerCost(RankLoad{DecodeSeqs: 1, DecodeCtx: 1000})
	if wantF, wantB := 61*2*64*128*1000.0, 61*132*1000.0; f != wantF || b != wantB {
		t.Errorf("indexer cost %v FLOPs %v B, want %v and %v", f, b, wantF, wantB)
	}
}
