package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestHFReal2KV: MiMo-7B and Seed-OSS-36B (catalog/qwen2like.go) and
// ERNIE-4.5-21B-A3B (catalog/ernie45.go) cache, per token, K and V of
// num_key_value_heads × head_dim in every layer, in BF16 with
// --kv-cache-dtype auto: 36 × 2 × 8 × 128 × 2 = 147,456 B for MiMo-7B,
// 64 × 2 × 8 × 128 × 2 = 262,144 B for Seed-OSS-36B (head_dim 128 from
// config.json, not 5,120 / 80 = 64, which would halve it) and
// 28 × 2 × 4 × 128 × 2 = 57,344 B for ERNIE-4.5-21B-A3B, and no
// per-sequence state. Olmo-3-7B (catalog/olmo.go): 32 × 2 × 32 × 128 × 2 =
// 524,288 B with every layer counted as full (what vLLM divides the pool
// by), 24 of them sliding over 4,096 tokens. Ling-mini-2.0
// (catalog/bailing.go): 20 × 2 × 4 × 128 × 2 = 40,960 B. Hunyuan-A13B
// (catalog/hunyuan.go; attention_head_dim 128): 32 × 2 × 8 × 128 × 2 =
// 131,072 B.
func TestHFReal2KV(t *testing.T) {
	for _, tt := range []struct {
		file            string
		want            int64
		sliding, window int
	}{
		{"../../catalog/testdata/hf/mimo-7b-base.verbatim.json", 36 * 2 * 8 * 128 * 2, 0, 0},
		{"../../catalog/testdata/hf/seed-oss-36b-instruct.reconstructed.json", 64 * 2 * 8 * 128 * 2, 0, 0},
		{"../../catalog/testdata/hf/ernie-4.5-21b-a3b.reconstructed.json", 28 * 2 * 4 * 128 * 2, 0, 0},
		{"../../catalog/testdata/hf/olmo-3-7b.written.json", 32 * 2 * 32 * 128 * 2, 24, 4096},
		{"../../catalog/testdata/hf/ling-mini-2.0.reconstructed.json", 20 * 2 * 4 * 128 * 2, 0, 0},
		{"../../catalog/testdata/hf/hunyuan-a13b-instruct.reconstructed.json", 32 * 2 * 8 * 128 * 2, 0, 0},
	} {
		m, err := catalog.LoadHFConfig(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		g := &catalog.GPU{ID: "custom", Name: "one GPU holding the whole model", MemoryMiB: 4 << 20, ComputeMajor: 10, IntraNodeKind: "nvlink"}
		in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.20.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
		util := 0.9
		if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192}); ds.HasErrors() {
			t.Fatal(ds)
		}
		r := Estimate(in)
		if r.KV.BytesPerToken != tt.want || r.KV.StateBytesPerSeq != 0 || r.KV.SlidingLayers != tt.sliding || r.KV.SlidingWindow != tt.window {
			t.Errorf("%s: %d B per token, %d B state per sequence, %d sliding layers of %d; want %d, 0, %d of %d",
				tt.file, r.KV.BytesPerToken, r.KV.StateBytesPerSeq, r.KV.SlidingLayers, r.KV.SlidingWindow, tt.want, tt.sliding, tt.window)
		}
	}
}
