package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// dsaInput is DeepSeek-V3.2 (reconstructed config) at TP8 on 8 H200 with
// vLLM 0.11.0 and the given KV dtype.
func dsaInput(t *testing.T, kv string) *input.Input {
	t.Helper()
	m, err := catalog.LoadHFConfig("../../catalog/testdata/deepseek-v3.2-reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h200")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.11.0", Layout: input.Layout{TP: 8, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: kv, Util: &util, MaxModelLen: 32768}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestDeepSeekV32Memory: the indexer's weights sit replicated on every GPU,
// each layer caches the indexer's 132 B key next to the MLA entry (656 B in
// fp8_ds_mla, 1152 B in BF16), and FLASHMLA_SPARSE's block size is 64.
func TestDeepSeekV32Memory(t *testing.T) {
	v3 := testQuickV3(t)
	for _, tt := range []struct {
		kv   string
		want int64
	}{{"auto", 61 * (1152 + 132)}, {"fp8", 61 * (656 + 132)}} {
		in := dsaInput(t, tt.kv)
		r := Estimate(in)
		if r.KVBytesPerToken != tt.want {
			t.Errorf("kv %s: %d B per token, want %d", tt.kv, r.KVBytesPerToken, tt.want)
		}
		if in.BlockSize != 64 || in.Resolved().Engine.MLABackend != "FLASHMLA_SPARSE" {
			t.Errorf("kv %s: block %d, backend %s", tt.kv, in.BlockSize, in.Resolved().Engine.MLABackend)
		}
		var idx float64
		for _, w := range r.Weights {
			if w.Component == CompIndexer {
				idx = w.ParamsPerGPU
			}
		}
		if want := in.Model.ParamCounts().Indexer; idx != want {
			t.Errorf("indexer per GPU %v, want all %v (replicated)", idx, want)
		}
		if d := r.ParamsPerGPU - v3.ParamsPerGPU; d != idx {
			t.Errorf("V3.2 - V3 per GPU = %v, want the indexer's %v", d, idx)
		}
	}
}

func testQuickV3(t *testing.T) Report {
	m, _ := catalog.LookupModel("deepseek-v3")
	g, _ := catalog.LookupGPU("h200")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.11.0", Layout: input.Layout{TP: 8, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 32768}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return Estimate(in)
}
