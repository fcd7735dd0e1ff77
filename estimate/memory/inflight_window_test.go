package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// mimoInput resolves MiMo-V2-Flash (the catalog's config; MiMo-V2.6-Flash's
// text decoder) on 8 × H100 at TP8 + EP under release version, as the
// tant2tls/Deepseek-serving study launched it.
func mimoInput(t *testing.T, version string, pp int) *input.Input {
	t.Helper()
	m, err := catalog.LookupModel("mimo-v2-flash")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h100-sxm")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: version,
		Layout: input.Layout{TP: 8 / pp, PP: pp, DP: 1, EP: true, Nodes: 1, GPUsPerNode: 8}}
	util, seqs, batched := 0.9, 64, 8192
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 262144,
		MaxNumSeqs: &seqs, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestWindowReserveAsVLLMCountsIt: what one 262,144-token request takes
// in MiMo-V2-Flash's sliding-window groups, by hand, and the start-up log it
// reproduces (tant2tls/Deepseek-serving, reports/blog-architecture-h100-v1/
// data/mimo-v26/_server/serve-off-20261007-205722.log, vLLM
// 0.31.1rc1.dev50: "Add 6 padding layers", "GPU KV cache size: 6,972,745
// tokens, Maximum concurrency for 262,144 tokens per request: 26.60x").
//
// By hand: at TP8 every layer holds one KV head (4 full-attention heads and
// 8 sliding-window heads over 8 ranks), K 192 + V 128 values in BF16 = 640 B
// per token, 10,240 B per 16-token page. vLLM groups the 9 full and 39
// sliding-window layers in groups of 9 (39 → 45 with 6 padding layers): one
// full group and five sliding-window groups, a block id costing 9 pages =
// 92,160 B. A request takes 262,144 / 16 = 16,384 full-group pages and, in
// each sliding-window group, ceil((128 − 1 + R) / 16) + 1 pages, R the
// reserve beyond the window: 8,192 (one chunk: 521 pages) up to 0.25.1, 16,384
// (two batches in flight under async scheduling: 1,033 pages) from 0.26.0
// (vllm.Release.SlidingWindowInFlight).
// 573,180 block ids (49.196 GiB, logged "49.2") over 16,384 + 5 × 1,033 =
// 21,549 per request is 26.599x and int(26.599… × 262,144) = 6,972,745, the
// logged count.
func TestWindowReserveAsVLLMCountsIt(t *testing.T) {
	const page = 9 * 10240
	for _, c := range []struct {
		version string
		pp      int
		pages   int64
	}{
		{"0.19.0", 1, 16384 + 5*521},  // one chunk
		{"0.31.0", 1, 16384 + 5*1033}, // async scheduling: two batches
		{"0.31.0", 2, 0},              // PP 2 without async scheduling: two batches too (checked below)
	} {
		in := mimoInput(t, c.version, c.pp)
		if c.pp > 1 {
			if in.AsyncScheduling() {
				t.Fatalf("%s PP%d: async scheduling assumed on", c.version, c.pp)
			}
			if got := inFlightTokens(in); got != 2*8192 {
				t.Errorf("%s PP%d: reserve %d tokens, want 16,384 (max_concurrent_batches = PP)", c.version, c.pp, got)
			}
			continue
		}
		kv := KVBytes(in, Stage{First: 0, End: in.Model.NumLayers})
		if got := kv.SequenceBytes(262144, 16); got != c.pages*page {
			t.Errorf("%s: one 262,144-token request %d B (%d block ids), want %d", c.version, got, got/page, c.pages)
		}
	}
	// The log's figures from the pool it implies.
	in := mimoInput(t, "0.31.0", 1)
	kv := KVBytes(in, Stage{First: 0, End: in.Model.NumLayers})
	tokens, ok := kv.ReportedTokens(573180*page, 262144, true)
	if !ok || tokens != 6972745 {
		t.Errorf("GPU KV cache size %d (ok %v), the log says 6,972,745", tokens, ok)
	}
}
