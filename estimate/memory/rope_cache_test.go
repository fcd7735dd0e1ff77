package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// TestDeepseekV4RoPECache: DeepSeek-V4-Flash rotates only the last
// qk_rope_head_dim (64) of its 512-wide head and keeps the cache in float32
// (vLLM's DeepseekV4ScalingRotaryEmbedding), over 65,536 × 16 = 1,048,576
// positions, once for rope_theta (sliding-window-only layers) and once for
// compress_rope_theta (compressed layers):
// 2 × 1,048,576 × 64 × 4 B = 0.50 GiB per GPU (it was 1.00 GiB at 512
// dimensions in BF16, QA41 D11).
func TestDeepseekV4RoPECache(t *testing.T) {
	in := dsv4Input(t, "b200", 4, 65536, 8192)
	var rope *WeightTerm
	r := Estimate(in)
	for i, w := range r.Weights {
		if w.Component == CompRoPECache {
			rope = &r.Weights[i]
		}
	}
	if rope == nil {
		t.Fatal("no rope_cache term")
	}
	if want := 2.0 * 1048576 * 64; rope.Stored() != want || rope.DType != "fp32" {
		t.Errorf("rope cache %.0f elements in %s, want %.0f in fp32", rope.Stored(), rope.DType, want)
	}
	if math.Abs(rope.GiB-0.5) > 1e-9 {
		t.Errorf("rope cache %.4f GiB, want 0.5", rope.GiB)
	}
	// A stage of sliding-window-only layers builds one embedding, a stage
	// mixing both kinds two.
	m := in.Model
	plain, compressed := -1, -1
	for i := range m.NumLayers {
		if m.DSV4.Ratio(i) > 1 && compressed < 0 {
			compressed = i
		} else if m.DSV4.Ratio(i) == 1 && plain < 0 {
			plain = i
		}
	}
	if plain < 0 || compressed < 0 {
		t.Fatalf("config has no plain (%d) or no compressed (%d) layer", plain, compressed)
	}
	if n := dsv4RopeBases(m, Stage{First: plain, End: plain + 1}); n != 1 {
		t.Errorf("one plain layer: %d bases", n)
	}
	if n := dsv4RopeBases(m, Stage{First: 0, End: m.NumLayers}); n != 2 {
		t.Errorf("all layers: %d bases", n)
	}
}

// TestMTPDraftSharesTargetRoPE: an MTP proposer built from the target's
// config gets the target's rotary embedding back from get_rope's
// _ROPE_DICT, so it adds no second cos/sin cache (QA41 D11 counted a
// second 1.00 GiB for DeepSeek-V4-Flash's MTP layer).
func TestMTPDraftSharesTargetRoPE(t *testing.T) {
	dsv4 := dsv4Input(t, "b200", 4, 65536, 8192)
	util, batched := 0.95, 8192
	if ds := dsv4.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 65536,
		MaxNumBatchedTokens: &batched, Speculative: &spec.Speculative{Method: "mtp", NumSpeculativeTokens: 1}}); ds.HasErrors() {
		t.Fatal(ds)
	}
	v3 := testinput.Example(t, "deepseek-v3-fp8-mtp-2x8h200")
	for name, in := range map[string]Report{"deepseek-v4-flash": Estimate(dsv4), "deepseek-v3": Estimate(&v3)} {
		var target, draft bool
		var drafts int
		for _, w := range in.Weights {
			switch {
			case w.Component == CompRoPECache:
				target = true
			case w.Component == draftPrefix+CompRoPECache:
				draft = true
			case isDraft(w.Component):
				drafts++
			}
		}
		if !target || draft || drafts == 0 {
			t.Errorf("%s: target rope cache %v, proposer's %v, %d proposer terms", name, target, draft, drafts)
		}
	}
}
