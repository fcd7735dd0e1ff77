package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestGLM45MemoryLikeQwen3MoE: GLM-4.5 is a GQA MoE and is placed the way
// Qwen3-MoE is (query and KV heads split over TP, KV heads replicated past
// their count, experts sharded over TP or spread by EP), with what vLLM's
// glm4_moe.py builds on top: q/k/v biases without an o_proj bias, per-head
// q/k norms (use_qk_norm), 3 dense layers before the MoE ones, one shared
// expert, and a float32 router with its correction bias. The expected bytes
// are worked out here from the config.json numbers, not from the package.
// No published vLLM start-up log of GLM-4.5 was found to compare with (see
// the report of the change); this pins the arithmetic instead.
func TestGLM45MemoryLikeQwen3MoE(t *testing.T) {
	const (
		h, layers, dense, moe    = 5120.0, 92.0, 3.0, 89.0
		heads, kvHeads, headDim  = 96.0, 8.0, 128.0
		inter, moeInter, experts = 12288.0, 1536.0, 160.0
		vocab, tp                = 151552.0, 8.0
		bf16, fp32               = 2.0, 4.0
		vocabPerRankPadded       = 18944.0 // ceil(151552/8) rounded up to 64
		qPerRank, kvPerRank      = heads / tp, kvHeads / tp
		gib                      = 1 << 30
	)
	attn := h*qPerRank*headDim + 2*h*kvPerRank*headDim + qPerRank*headDim*h + (qPerRank+2*kvPerRank)*headDim + 2*headDim
	want := bf16*(2*vocabPerRankPadded*h+ // embedding and lm_head
		layers*attn+
		dense*3*h*inter/tp+
		moe*experts*3*h*moeInter/tp+ // routed experts, flattened TP
		moe*3*h*moeInter/tp+ // the shared expert
		layers*2*h+h) + // norms
		fp32*moe*(h*experts+experts) + // router and e_score_correction_bias
		bf16*131072*64 // RoPE's cos/sin cache: max_position_embeddings × (128 × partial_rotary_factor 0.5)

	in := testinput.Quick(t, resolve.QuickOptions{Model: "glm-4.5", GPU: "h200", TP: 8, MaxModelLen: 8192})
	r := Estimate(in)
	if got := r.PerGPU.WeightsGiB * gib; math.Abs(got-want)/want > 1e-6 {
		t.Errorf("GLM-4.5 TP8 BF16 weights = %.4f GiB, want %.4f GiB", got/gib, want/gib)
	}
	if r.KVBytesPerToken != int64(layers*kvPerRank*headDim*2*bf16) {
		t.Errorf("KV bytes per token = %d, want %d (92 layers × 1 KV head × 128 × K,V × 2 B)", r.KVBytesPerToken, int64(layers*kvPerRank*headDim*2*bf16))
	}
	// TP 16 > 8 KV heads: one replicated head per GPU, as for Qwen3-MoE.
	in16 := testinput.Quick(t, resolve.QuickOptions{Model: "glm-4.5", GPU: "h200", TP: 16, MaxModelLen: 8192})
	if got := Estimate(in16).KVBytesPerToken; got != int64(layers*1*headDim*2*bf16) {
		t.Errorf("TP16 KV bytes per token = %d, want one replicated KV head per GPU", got)
	}
	for _, s := range r.Weights {
		if s.Component == CompRouter && s.DType != "fp32" {
			t.Errorf("router stored as %s, want fp32 as vLLM's Glm4MoE builds it", s.DType)
		}
	}
}
