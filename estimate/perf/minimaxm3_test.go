package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestMiniMaxM3SparseStep: MiniMax-M3's 57 sparse layers read at most
// 16 × 128 = 2,048 cached tokens of K/V per sequence in decode, the three
// dense layers the whole context; the indexer scans every index key. At
// TP 8 (one KV head and one index head per GPU), 8 sequences of 131,072
// tokens, by hand:
//
//	K/V read: 512 B per token and layer × 8 × (3 × 131,072 + 57 × 2,048)
//	indexer:  57 layers × 2 × 1 head × 128 × 8 × 131,072 FLOPs, and
//	          57 × 256 B × 8 × 131,072 bytes (bf16 keys)
//
// Against the same model with every layer dense (512 × 8 × 60 × 131,072 =
// 32.2 GB of K/V) the sparse model reads 2.09 GB of K/V and 15.3 GB of
// index keys: 0.54 of it. The bf16 index key (256 B per token and layer)
// is half of what a TP-8 rank's K/V costs (512 B), so at long context the
// indexer's scan, not the attention, dominates decode — first principles,
// the step's attention is memory-bound here. It grows with the context.
func TestMiniMaxM3SparseStep(t *testing.T) {
	m := hfFixture(t, "minimax-m3.verbatim.json")
	dense := *m
	g := *m.MiniMaxM3
	g.SparseLayers = make([]bool, m.NumLayers)
	dense.MiniMaxM3 = &g
	hw := NewHardware(perfGPU(t, "b200"), 8, 0, 2, 0, 0, 0)
	setup := func(m *catalog.Model) StepSetup {
		return StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: idealEff}
	}
	const ctx = 131072.0
	l := RankLoad{DecodeSeqs: 8, DecodeCtx: 8 * ctx}
	sm := NewStepModel(setup(m))
	if got, want := sm.layerCtx(l), 3*8*ctx+57*8*2048.0; got != want {
		t.Errorf("attended token-layers %v, want %v", got, want)
	}
	if sm.kvBytesTokLayer != 512 {
		t.Errorf("K/V per token and layer %v, want 2 × 128 × 2 B", sm.kvBytesTokLayer)
	}
	f, b := sm.indexerCost(l)
	wantF := 57 * 2 * 128 * 8 * ctx * hw.FP8FLOPS / hw.BF16FLOPS // priced at the BF16 peak
	if wantB := 57 * 256 * 8 * ctx; math.Abs(f/wantF-1) > 1e-12 || b != wantB {
		t.Errorf("indexer %v FLOPs %v B, want %v and %v", f, b, wantF, wantB)
	}
	long, short := sm.StepUniform(l), sm.StepUniform(RankLoad{DecodeSeqs: 8, DecodeCtx: 8 * 2048})
	full := NewStepModel(setup(&dense)).StepUniform(l)
	if r := long.AttentionS / full.AttentionS; math.Abs(r/0.54-1) > 0.05 {
		t.Errorf("128K attention: sparse %.3f ms vs all-dense %.3f ms (%.3f), want ≈ 0.54", long.AttentionS*1e3, full.AttentionS*1e3, r)
	}
	if long.AttentionS <= short.AttentionS {
		t.Errorf("sparse attention does not grow with the context: %.3f ms at 2K, %.3f at 128K", short.AttentionS*1e3, long.AttentionS*1e3)
	}
	// The indexer weights a GPU streams: index_q 1 head of 4, index_k whole.
	p := m.ParamCounts()
	if got, want := indexerParamsGPU(m, p, 8), 57*(6144*128*2+256.0); got != want {
		t.Errorf("indexer per GPU %v, want %v", got, want)
	}
}
