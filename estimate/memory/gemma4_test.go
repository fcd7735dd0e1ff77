package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// gemma4Input resolves a Gemma 4 config of catalog/testdata/hf on gpu at TP
// tp, vLLM 0.20.0, KV cache in bf16, block 16.
func gemma4Input(t *testing.T, file, gpu string, tp, maxLen, batched int) *input.Input {
	t.Helper()
	m := hfFixture(t, file)
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU(gpu)
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.20.0", Layout: input.Layout{TP: tp, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: tp}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "bfloat16", Util: &util, MaxModelLen: maxLen, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestGemma4KVAsVLLMGroupsIt: Gemma 4 26B-A4B on one GPU, by hand. Its 25
// sliding-window layers cache 2 × 8 KV heads × 256 × 2 B = 8,192 B per
// token (a 16-token page of 131,072 B), its 5 global layers 2 × 2 × 512 ×
// 2 = 4,096 B (65,536 B per page): vLLM doubles the global layers' block to
// 32 tokens so the pages match (unify_kv_cache_spec_page_size) and groups
// the layers 5 at a time (the fewer kind): 5 sliding groups, 1 global. A
// 32,768-token request with chunks of 8,192 takes 5 × (ceil(9215/16) + 1)
// = 2,885 sliding pages and 32768/32 = 1,024 global ones: 3,909 pages × 5
// layers × 131,072 B. At TP 4 the sliding layers hold 2 heads, the global
// ones 1 (replicated past 2): 32,768 B pages both, block 16.
func TestGemma4KVAsVLLMGroupsIt(t *testing.T) {
	in := gemma4Input(t, "gemma-4-26b-a4b.verbatim.json", "h100", 1, 32768, 8192)
	kv := KVBytes(in, Stage{First: 0, End: 30})
	if want := int64(3909 * 5 * 131072); kv.SequenceBytes(32768, 16) != want {
		t.Errorf("TP 1: %d B, want %d", kv.SequenceBytes(32768, 16), want)
	}
	if kv.BytesPerToken != 25*8192+5*4096 || kv.SlidingLayers != 25 {
		t.Errorf("bytes per token %d (every layer as full: %d), sliding %d", kv.BytesPerToken, 25*8192+5*4096, kv.SlidingLayers)
	}
	in4 := gemma4Input(t, "gemma-4-26b-a4b.verbatim.json", "h100", 4, 32768, 8192)
	kv4 := KVBytes(in4, Stage{First: 0, End: 30})
	// 5 × (576 + 1) sliding + 32768/16 global = 4,933 pages × 5 × 32,768 B.
	if want := int64((5*577 + 2048) * 5 * 32768); kv4.SequenceBytes(32768, 16) != want {
		t.Errorf("TP 4: %d B, want %d", kv4.SequenceBytes(32768, 16), want)
	}
}
