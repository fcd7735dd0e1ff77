package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

func minimaxM3Input(t *testing.T, file, gpu string, tp int, kv string) *input.Input {
	t.Helper()
	m := hfFixture(t, file)
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU(gpu)
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.20.0", Layout: input.Layout{TP: tp, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: tp}}
	util, block := 0.9, 128
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: kv, Util: &util, MaxModelLen: 32768, BlockSize: &block}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestMiniMaxM3KV: one token costs, on every layer, K and V of the rank's
// KV heads (4 KV heads of 128: max(1, 4 / TP) per GPU), and on each of the
// 57 sparse layers the indexer's key, 128 bf16 values (256 B) on every
// rank whatever --kv-cache-dtype says (MiniMaxM3IndexerCache, indexer_kv_dtype
// bf16 by default). By hand:
//
//	TP 1:         60 × 2 × 4 × 128 × 2 B = 122,880 + 57 × 256 = 14,592 → 137,472
//	TP 4 or 8:    60 × 2 × 1 × 128 × 2 B =  30,720 + 14,592            →  45,312
//	TP 8, fp8 KV: 60 × 2 × 1 × 128 × 1 B =  15,360 + 14,592            →  29,952
//
// All of it in one KV group of one block size (MLAAttentionSpec is a
// FullAttentionSpec): a sequence of n tokens holds ceil(n / 128) pages.
func TestMiniMaxM3KV(t *testing.T) {
	for _, tt := range []struct {
		tp   int
		kv   string
		want int64
	}{{1, "auto", 137472}, {4, "auto", 45312}, {8, "auto", 45312}, {8, "fp8", 29952}} {
		in := minimaxM3Input(t, "minimax-m3.verbatim.json", "b200", tt.tp, tt.kv)
		kv := KVBytes(in, Stage{First: 0, End: 60})
		if kv.BytesPerToken != tt.want || kv.IndexerLayers != 57 || kv.Layers != 60 {
			t.Errorf("TP %d kv %s: %d B per token (%d layers, %d with an indexer), want %d: %s", tt.tp, tt.kv, kv.BytesPerToken, kv.Layers, kv.IndexerLayers, tt.want, kv.Formula)
		}
		if got, want := kv.SequenceBytes(1000, 128), tt.want*8*128; got != want {
			t.Errorf("TP %d: 1,000 tokens hold %d B, want 8 pages of 128 tokens: %d", tt.tp, got, want)
		}
		// A pipeline stage of layers 0–29 holds its own: 27 sparse.
		if st := KVBytes(in, Stage{First: 0, End: 30}); st.IndexerLayers != 27 {
			t.Errorf("TP %d: stage 0–29 has %d indexer layers, want 27", tt.tp, st.IndexerLayers)
		}
	}
}

// TestMiniMaxM3WeightsMatchCheckpointBytes (issue #23: weights within 3%
// of the checkpoint's bytes):
//
//   - MiniMaxAI/MiniMax-M3 (BF16): vLLM's recipe (vllm-project/recipes@
//     8959cf6 models/MiniMaxAI/MiniMax-M3.yaml) reads "427.04B total from
//     safetensors metadata (BF16: 426.99B + F32: 46.3M)": 426.99e9 × 2 +
//     46.3e6 × 4 = 854.17 GB. Served from aiconfigurator's text-only
//     config (no vision_config; the router in float32): 852.44 GB, −0.20%;
//     with the vision tower the wrapper's vision_config describes
//     (865,567,232 BF16 parameters, catalog TestMiniMaxM3NVFP4) 854.17 GB.
//   - nvidia/MiniMax-M3-NVFP4: "The mixed-precision checkpoint is 250.1 GB
//     on disk" (vllm-project/recipes PR #678, open, 2026-07-24; a recipe
//     change's own figure, not a listing we read). By hand: 413.12 B
//     routed-expert parameters × 0.5625 B = 232.38 GB; attention, indexer,
//     shared experts and dense MLPs 10.55 B × 1.03125 = 10.88 GB (MXFP8);
//     embedding and LM head 2.46 B × 2 = 4.92 GB; the fp32 router 0.18 GB;
//     the BF16 vision tower 1.73 GB (ModelOpt's exclude_modules): 250.09 GB,
//     −0.004%.
func TestMiniMaxM3WeightsMatchCheckpointBytes(t *testing.T) {
	for _, tt := range []struct {
		file       string
		checkpoint float64
		handGB     float64
	}{
		{"minimax-m3.verbatim.json", 426.99e9*2 + 46.3e6*4, 0},
		{"minimax-m3-nvfp4.reconstructed.json", 250.1e9, 413122166784*0.5625 + (6417300480+224147712+3227516928+679477248)*1.03125 + 2*1229193216*2 + 57*(6144*128+128)*4 + 743424*2 + 865567232*2},
	} {
		m := hfFixture(t, tt.file)
		got, _ := wholeModelWeights(t, m)
		d := got/tt.checkpoint - 1
		t.Logf("%s: served %.2f GB vs checkpoint %.2f GB (%+.2f%%)", tt.file, got/1e9, tt.checkpoint/1e9, 100*d)
		if d > 0 || d < -0.03 {
			t.Errorf("%s: served %.2f GB vs checkpoint %.2f GB (%+.2f%%), want within 3%% below", tt.file, got/1e9, tt.checkpoint/1e9, 100*d)
		}
		if tt.handGB == 0 {
			// The text-only config with the wrapper's vision tower added.
			if d := (got+865567232*2)/tt.checkpoint - 1; math.Abs(d) > 1e-4 {
				t.Errorf("%s with the vision tower: %+.3f%%", tt.file, 100*d)
			}
		}
		if tt.handGB > 0 && math.Abs(got/tt.handGB-1) > 1e-4 {
			t.Errorf("%s: served %.4f GB, by hand %.4f GB", tt.file, got/1e9, tt.handGB/1e9)
		}
	}
}

// TestMiniMaxM3IndexerPlacement: the indexer's index_q splits like the KV
// heads (4 heads: 1 per GPU from TP 4 on), index_k and the norms are whole
// on every GPU: per GPU 57 × (6,144 × 128 × max(1, 4 / TP) + 6,144 × 128 +
// 256).
func TestMiniMaxM3IndexerPlacement(t *testing.T) {
	for _, tp := range []int{1, 2, 8} {
		in := minimaxM3Input(t, "minimax-m3-nvfp4.reconstructed.json", "b200", tp, "auto")
		var got float64
		for _, s := range Placement(in, Stage{First: 0, End: 60}) {
			if s.Component == CompIndexer {
				got = s.ParamsPerGPU
			}
		}
		want := 57 * (6144*128*float64(max(1, 4/tp)) + 6144*128 + 256)
		if got != want {
			t.Errorf("TP %d: indexer %.0f per GPU, want %.0f", tp, got, want)
		}
	}
}
