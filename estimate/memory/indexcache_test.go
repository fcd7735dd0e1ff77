package memory

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestGLM52IndexShareKV reproduces the KV lines of the vLLM 0.26.0
// start-up of pocketInfer's scaled GLM-5.2 config
// (published/vllm-memory-logs.yaml, glm52-dummy-pocketinfer-h800nvl32g-tp1:
// "Available KV cache memory: 12.29 GiB", "GPU KV cache size: 990,144
// tokens", max_model_len 4,096) from its logged memory. By hand: 11 MLA
// layers of (512 + 64) × 2 B = 1,152 B per token, and indexer keys of 128
// FP8 + 4 B scale = 132 B in the 5 layers that keep their indexer (0, 1, 2,
// 6, 10: index_topk_freq 4, index_skip_topk_offset 3), 13,332 B per token;
// FLASH_ATTN_MLA_SPARSE's 64-token block is 853,248 B; the logged 12.29 GiB
// makes 15,465 blocks (vLLM, from the unrounded memory: 15,471) and 0.26.0
// prints max_concurrency × max_model_len = 15,465 / 64 × 4,096 = 989,760
// tokens (logged 990,144, −0.04%). With an indexer key in all 11 layers
// (14,124 B) the pool would hold 934,592 tokens, 5.6% short of the log.
func TestGLM52IndexShareKV(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/glm-5.2-dummy.pocketinfer.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h800")
	cp := *g
	cp.MemoryMiB = 32000
	in := &input.Input{Model: m, GPU: &cp, VLLMVersion: "0.26.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	util := 0.92
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 4096, EnforceEager: true}); ds.HasErrors() {
		t.Fatal(ds)
	}
	if in.BlockSize != 64 {
		t.Fatalf("block %d, the log's FLASH_ATTN_MLA_SPARSE uses 64", in.BlockSize)
	}
	kv := KVBytes(in, Stage{First: 0, End: m.NumLayers})
	if kv.BytesPerToken != 11*1152+5*132 || kv.IndexerLayers != 5 || kv.Layers != 11 {
		t.Fatalf("%d B per token, %d indexer layers of %d; want 13,332, 5 of 11", kv.BytesPerToken, kv.IndexerLayers, kv.Layers)
	}
	if !strings.Contains(kv.Formula, "IndexCache") {
		t.Errorf("formula does not say the indexer is shared: %s", kv.Formula)
	}
	avail := 12.29 * GiB
	blocks := math.Floor(avail / (64 * 13332))
	if blocks != 15465 {
		t.Fatalf("%v blocks", blocks)
	}
	// One KV-cache group (every layer's page in one block): vLLM's
	// max_concurrency × max_model_len is blocks × 64, the plain formula.
	if _, several := kv.ReportedTokens(avail, 4096, true); several {
		t.Error("laid out as several KV-cache groups")
	}
	if tok := int64(avail/float64(64*kv.BytesPerToken)) * 64; tok != 989760 {
		t.Errorf("GPU KV cache size %d, want 989,760 (logged 990,144)", tok)
	}
	// One 4,096-token request: 64 blocks of every layer's page.
	if got := kv.SequenceBytes(4096, 64); got != 64*64*13332 {
		t.Errorf("one request %d B, want %d", got, 64*64*13332)
	}
	// The weights hold five indexers, not eleven (logged 15.36 GiB).
	r := Estimate(in)
	for _, w := range r.Weights {
		if w.Component == CompIndexer {
			per := 2048.0*32*128 + 6144*128 + 6144*32 + 2*128
			if math.Abs(w.GiB*GiB-5*per*2) > 1 {
				t.Errorf("indexer weights %.0f B, want 5 × %.0f × 2 B", w.GiB*GiB, per)
			}
		}
	}
	if math.Abs(r.PerGPU.WeightsGiB/15.36-1) > 0.01 {
		t.Errorf("weights %.2f GiB, the log says 15.36", r.PerGPU.WeightsGiB)
	}
}

// TestGLM5KVEveryLayerIndexer: GLM-5/5.1 configs have no index_topk_freq,
// so every layer keeps its indexer: 78 × (1,152 + 132) = 100,152 B per
// token at a BF16 cache, as the GLM-5.1-FP8 H200 log implies
// (glm51-fp8-bisect43163-h200-tp8: 32.06 GiB / 343,744 tokens = 100,145 B).
func TestGLM5KVEveryLayerIndexer(t *testing.T) {
	m, err := catalog.LookupModel("glm-5-fp8")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h200")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.19.1", Layout: input.Layout{TP: 8, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, EnforceEager: true}); ds.HasErrors() {
		t.Fatal(ds)
	}
	kv := KVBytes(in, Stage{First: 0, End: m.NumLayers})
	if kv.BytesPerToken != 78*1284 || kv.IndexerLayers != 78 || m.IndexCache != nil {
		t.Errorf("%d B per token, %d indexer layers", kv.BytesPerToken, kv.IndexerLayers)
	}
}
