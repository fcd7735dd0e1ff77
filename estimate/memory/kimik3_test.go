package memory

import "testing"

// TestKimiK3KVAndState: Kimi-K3 (catalog/testdata/hf/kimi-k3.verbatim.json)
// at TP 8 on B200, BF16 cache, vLLM 0.20.0, by hand:
//
//   - its 24 MLA layers cache kv_lora_rank 512 + qk_rope_head_dim 64 values
//     of 2 B per token, replicated on every TP rank: 24 × 1,152 = 27,648 B;
//   - each of its 69 KDA layers holds per sequence (vLLM's kda_state_shape
//     and kda_state_dtype) a conv state of (4 − 1) × 3 × 96 × 128 / 8 =
//     13,824 BF16 values and a recurrent state of 96 / 8 × 128 × 128 =
//     196,608 float32 values: 27,648 + 786,432 = 814,080 B, 69 × 814,080 =
//     56,171,520 B a sequence;
//   - vLLM's hybrid config raises the MLA block to the smallest multiple of
//     64 tokens (MLA's kernel alignment) whose page holds one layer's
//     state: 64 × ceil(814,080 / (64 × 1,152)) = 768 tokens, pages of
//     884,736 B (states padded to them), the layers grouped 24 at a time
//     (1 MLA group, 3 state groups of 69 + 3 padding layers);
//   - a 65,536-token sequence: ceil(65,536 / 768) = 86 MLA pages and 3
//     state groups × 2 pages (0.20.0's state pages per request), × 24
//     layers × 884,736 B.
func TestKimiK3KVAndState(t *testing.T) {
	in := gemma4Input(t, "kimi-k3.verbatim.json", "b200", 8, 65536, 8192)
	kv := KVBytes(in, Stage{First: 0, End: 93})
	if kv.BytesPerToken != 24*1152 || kv.Layers != 24 || kv.LinearLayers != 69 {
		t.Errorf("bytes per token %d (want 27,648) over %d MLA layers and %d KDA layers", kv.BytesPerToken, kv.Layers, kv.LinearLayers)
	}
	if kv.StateBytesPerSeq != 69*814080 {
		t.Errorf("state per sequence %d B, want 69 × 814,080 = 56,171,520", kv.StateBytesPerSeq)
	}
	if kv.HybridBlock != 768 || kv.StatePages != 2 {
		t.Errorf("block %d (want 768), state pages %d (want 2)", kv.HybridBlock, kv.StatePages)
	}
	if want := int64((86 + 3*2) * 24 * 884736); kv.SequenceBytes(65536, in.BlockSize) != want {
		t.Errorf("one 65,536-token sequence %d B, want %d", kv.SequenceBytes(65536, in.BlockSize), want)
	}
}

// TestKimiK3ExpertPadding: at TP 16 a rank's share of the experts' 3,072
// would be 192, under KimiMoE's 256, so vLLM builds them 256 × 16 = 4,096
// wide (zero-padded): each of 896 experts in 92 layers stores 3 × 3,584 ×
// 4,096 / 16 values per GPU, 4/3 of its 3 × 3,584 × 3,072 / 16 parameters.
// At TP 8 (384 a rank) nothing is padded.
func TestKimiK3ExpertPadding(t *testing.T) {
	for _, tt := range []struct {
		tp    int
		width float64
	}{{16, 4096}, {8, 3072}} {
		in := gemma4Input(t, "kimi-k3.verbatim.json", "b200", tt.tp, 8192, 8192)
		r := Estimate(in)
		var got WeightTerm
		for _, w := range r.Weights {
			if w.Component == CompRouted {
				got = w
			}
		}
		params := 92 * 896 * 3 * 3584 * 3072 / float64(tt.tp)
		stored := 92 * 896 * 3 * 3584 * tt.width / float64(tt.tp)
		if got.ParamsPerGPU != params || got.Stored() != stored {
			t.Errorf("TP %d: routed experts %.0f parameters, %.0f stored; want %.0f and %.0f", tt.tp, got.ParamsPerGPU, got.Stored(), params, stored)
		}
	}
}

// TestKimiK3Storage: on B200 at TP 8 and TP 4 the routed experts are MXFP4
// (compressed-tensors mxfp4-pack-quantized: 4 bits + one E8M0 byte per 32 =
// 0.53125 B, not NVFP4's FP8 scale per 16), unpadded (vLLM's
// CompressedTensorsW4A4Mxfp4MoEMethod allocates the shapes as given, where
// gpt-oss's Mxfp4MoEMethod would round a rank's 384 up to 512 on
// Blackwell); the MLA attention the ignore list names stays BF16; the
// MoonViT tower (447,358,976 BF16 parameters, 396,361,728 of them in its
// blocks) is whole on every GPU at TP 8, which does not divide its 12
// heads (vLLM runs it data parallel), and its blocks split over TP 4.
func TestKimiK3Storage(t *testing.T) {
	const tower, blocks = 447358976.0, 396361728.0
	for _, tt := range []struct {
		tp      int
		encoder float64
	}{{8, tower}, {4, tower - blocks*3/4}} {
		in := gemma4Input(t, "kimi-k3.verbatim.json", "b200", tt.tp, 8192, 8192)
		r := Estimate(in)
		seen := map[string]WeightTerm{}
		for _, w := range r.Weights {
			seen[w.Component] = w
		}
		routed, attn, enc := seen[CompRouted], seen[CompAttention], seen[CompEncoder]
		if routed.DType != "mxfp4" || routed.BytesPerParam != 0.53125 || routed.Stored() != routed.ParamsPerGPU {
			t.Errorf("TP %d: routed experts %s at %.5f B, %.0f stored of %.0f", tt.tp, routed.DType, routed.BytesPerParam, routed.Stored(), routed.ParamsPerGPU)
		}
		if attn.DType != "bf16" || attn.BytesPerParam != 2 {
			t.Errorf("TP %d: attention %s at %.3f B, want bf16", tt.tp, attn.DType, attn.BytesPerParam)
		}
		if enc.ParamsPerGPU != tt.encoder || enc.DType != "bf16" {
			t.Errorf("TP %d: vision encoder %.0f %s parameters per GPU, want %.0f bf16 (%s)", tt.tp, enc.ParamsPerGPU, enc.DType, tt.encoder, enc.Placement)
		}
	}
}
