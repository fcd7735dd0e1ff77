package catalog

import (
	"math"
	"testing"
)

// TestIndexCacheLayers: which layers keep their DSA indexer, by vLLM's
// rule (deepseek_v2.py, DeepseekV2MLAAttention): without a pattern, layer i
// keeps it when max(i − offset + 1, 0) is a multiple of index_topk_freq;
// a pattern's "S" marks a sharing layer. Worked out by hand for each row.
func TestIndexCacheLayers(t *testing.T) {
	pattern := "FFSFS"
	for _, tc := range []struct {
		name string
		ic   *IndexCache
		n    int
		want string // one letter per layer: F keeps its indexer, S shares
	}{
		{"no IndexCache (V3.2, GLM-5): every layer", nil, 6, "FFFFFF"},
		// freq 4, offset 3 (GLM-5.2): i=0..2 → 0; 3 → 1; 4 → 2; 5 → 3; 6 → 4; 10 → 8.
		{"GLM-5.2: freq 4, offset 3", &IndexCache{Freq: 4, Offset: 3}, 11, "FFFSSSFSSSF"},
		// freq 2, vLLM's default offset 2: i=0,1 → 0; 2 → 1; 3 → 2; 4 → 3; 5 → 4.
		{"freq 2, offset 2", &IndexCache{Freq: 2, Offset: 2}, 6, "FFSFSF"},
		// The pattern rules the layers it covers; layers past it keep theirs.
		{"pattern", &IndexCache{Freq: 1, Offset: 2, Pattern: pattern}, 7, "FFSFSFF"},
	} {
		m := &Model{IndexTopK: 2048, IndexNHeads: 32, IndexHeadDim: 128, KVLoraRank: 512, NumLayers: tc.n, IndexCache: tc.ic}
		got := ""
		for i := 0; i < tc.n; i++ {
			got += map[bool]string{true: "F", false: "S"}[m.HasIndexer(i)]
		}
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	if (&Model{NumLayers: 4}).HasIndexer(0) {
		t.Error("a dense-attention model has no indexer")
	}
}

// TestGLM52ScaledConfigIndexShare reads the scaled GLM-5.2 config of
// pocketInfer/pocketInfer (testdata/hf/glm-5.2-dummy.pocketinfer.verbatim.json:
// 11 layers, index_topk_freq 4, index_skip_topk_offset 3, an indexer_types
// list that vLLM does not read but that says the same) as vLLM builds it:
// indexers in layers 0, 1, 2, 6 and 10 only, so five layers' indexer
// weights (wq_b 2,048 × 32 × 128, wk 6,144 × 128, weights_proj 6,144 × 32,
// k_norm 2 × 128) and five indexer key caches of 132 B per token.
func TestGLM52ScaledConfigIndexShare(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/glm-5.2-dummy.pocketinfer.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	if m.IndexCache == nil || m.IndexCache.Freq != 4 || m.IndexCache.Offset != 3 || m.IndexCache.Pattern != "" {
		t.Fatalf("index cache %+v", m.IndexCache)
	}
	if n := m.IndexerLayers(0, m.NumLayers); n != 5 {
		t.Errorf("%d indexer layers, want 5", n)
	}
	for i, want := range []bool{true, true, true, false, false, false, true, false, false, false, true} {
		if m.HasIndexer(i) != want {
			t.Errorf("layer %d: indexer %v, want %v", i, !want, want)
		}
	}
	per := 2048.0*32*128 + 6144*128 + 6144*32 + 2*128
	if got := m.ParamCounts().Indexer; math.Abs(got-5*per) > 0.5 {
		t.Errorf("indexer parameters %.0f, want 5 × %.0f", got, per)
	}
}

// TestIndexCacheNullPattern: GLM-5.2's config writes "index_topk_pattern":
// null; a frequency of 1 without a pattern is no sharing at all.
func TestIndexCacheNullPattern(t *testing.T) {
	one, four := 1, 4
	for _, tc := range []struct {
		c    hfConfig
		want bool
	}{
		{hfConfig{IndexTopKFreq: 0}, false},
		{hfConfig{IndexTopKFreq: one}, false},
		{hfConfig{IndexTopKFreq: four}, true},
		{hfConfig{IndexTopKPattern: new(string)}, false},
	} {
		if got := tc.c.indexCache() != nil; got != tc.want {
			t.Errorf("%+v: sharing %v, want %v", tc.c, got, tc.want)
		}
	}
	p := "FS"
	if ic := (&hfConfig{IndexTopKPattern: &p}).indexCache(); ic == nil || ic.Offset != vllmIndexSkipOffset || ic.Pattern != "FS" {
		t.Errorf("pattern only: %+v", ic)
	}
}
