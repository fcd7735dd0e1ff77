package memory

import (
	"math"
	"testing"
)

// TestStep3p5KVAsVLLMGroupsIt: Step-3.5-Flash (catalog/testdata/hf/
// step-3.5-flash.verbatim.json) at TP 4, vLLM 0.20.0, BF16, block 16,
// by hand. Every layer caches 8 KV heads of 128 (sliding-window ones too:
// attention_other_setting's num_attention_groups 8, head_dim 128), so at
// TP 4 a layer holds 2 heads × (K 128 + V 128) × 2 B = 1,024 B per token,
// a 16-token page 16,384 B; every layer counted as full is 45 × 1,024 =
// 46,080 B per token. vLLM groups the 12 full and 33 sliding-window layers
// 12 at a time (the fewer kind): 1 full group, 3 sliding ones (33 → 36). A
// 65,536-token request with chunks of 8,192 takes 65,536 / 16 = 4,096 full
// pages and 3 × (ceil((512 − 1 + 8,192) / 16) + 1) = 3 × 545 sliding pages:
// 5,731 pages × 12 layers × 16,384 B.
func TestStep3p5KVAsVLLMGroupsIt(t *testing.T) {
	in := gemma4Input(t, "step-3.5-flash.verbatim.json", "h200", 4, 65536, 8192)
	kv := KVBytes(in, Stage{First: 0, End: 45})
	if kv.BytesPerToken != 45*1024 || kv.SlidingLayers != 33 || kv.SlidingWindow != 512 {
		t.Errorf("bytes per token %d (want 46,080), sliding layers %d, window %d", kv.BytesPerToken, kv.SlidingLayers, kv.SlidingWindow)
	}
	if want := int64((4096 + 3*545) * 12 * 16384); kv.SequenceBytes(65536, 16) != want {
		t.Errorf("one 65,536-token request %d B, want %d", kv.SequenceBytes(65536, 16), want)
	}
}

// TestStep3p5WeightsPerGPU: Step-3.5-Flash's BF16 weights on one of TP 4
// ranks (no expert parallel), by hand from vLLM's step3p5.py:
//
//	embed_tokens, lm_head: 128,896 rows padded to 32,256 per rank × 4,096
//	attention: full layers 16 of 64 query heads, 2 of 8 KV heads, g_proj 16
//	  rows, q/k norms 2 × 128; sliding layers 24 of 96 heads, the same KV
//	dense MLP (layers 0-2): 3 × 4,096 × 11,264 / 4 each
//	experts (layers 3-44): 288 × 3 × 4,096 × 1,280 / 4, shared 3 × 4,096 ×
//	  1,280 / 4, the float32 gate 4,096 × 288 and router bias 288 whole
//	norms: 45 × 2 × 4,096 + 4,096
//
// Beside them the weights hold RoPE's cos/sin cache: 262,144 positions ×
// 128 rotary dimensions × 2 B (the sliding layers' rope, full rotary; the
// full layers' second rope, 64 dimensions with llama3 scaling, is the
// 32 MiB ropeCacheElems leaves out).
func TestStep3p5WeightsPerGPU(t *testing.T) {
	in := gemma4Input(t, "step-3.5-flash.verbatim.json", "h200", 4, 65536, 8192)
	const h = 4096.0
	emb := 2 * 32256 * h
	full := h*16*128 + 2*h*2*128 + 16*128*h + 2*128 + h*16
	swa := h*24*128 + 2*h*2*128 + 24*128*h + 2*128 + h*24
	attn := 12*full + 33*swa
	dense := 3 * 3 * h * 11264 / 4
	experts := 42 * (288*3*h*1280/4 + 3*h*1280/4)
	router := 42 * (h*288 + 288)
	norms := 45*2*h + h
	params := emb + attn + dense + experts + router + norms
	r := Estimate(in)
	if math.Abs(r.ParamsPerGPU-params) > 1 {
		t.Errorf("parameters per GPU %.12g, hand %.12g", r.ParamsPerGPU, params)
	}
	// BF16, the float32 router at 4 B.
	bytes := 2*(params-router) + 4*router + 262144*128*2
	got := r.PerGPU.WeightsGiB * (1 << 30)
	t.Logf("Step-3.5-Flash TP4 weights per GPU: %.2f GiB (hand %.2f GiB)", r.PerGPU.WeightsGiB, bytes/(1<<30))
	if math.Abs(got-bytes)/bytes > 1e-6 {
		t.Errorf("weights per GPU %.0f B, hand %.0f B", got, bytes)
	}
	// The BF16 checkpoint holds the main model and its 3 MTP layers (45-47),
	// which vLLM's main model skips. Each MTP layer, as an ATOM port of
	// Step-3.5-Flash's MTP lists the checkpoint's tensors (jamesETsmith/ATOM
	// at 887c3404 atom/models/step3p5_mtp.py: enorm, hnorm, eh_proj, a decoder layer with a dense MLP
	// and 96-head sliding attention, shared_head.norm and .output):
	// eh_proj 2h × h, attention h × 96 × 128 × 2 + 2 × h × 8 × 128 + g_proj
	// h × 96 + q/k norms 2 × 128, MLP 3 × h × 11,264, five norms of h and an
	// output head of 128,896 × h: 809,390,336 parameters. With the main
	// model's 196,956,130,368 (catalog's hand count) that is 199,384,301,376,
	// the 199.4B Hugging Face's safetensors metadata counts
	// (llmrun.dev/model/stepfun-ai-step-3-5-flash: "Parameters 199.4B";
	// onlylabs.fyi's capture of the model page: "params 199B"), × 2 B =
	// 398.8 GB: the "~372 GB (BF16)" (GiB) of tacos4me/Step-3.5-Flash-NVFP4's
	// card and the "~400 GB (BF16)" of nameistoken/Step-3.5-Flash-Quark-
	// W8A8-INT8's. The 4 ranks hold it less the MTP layers.
	const mtp = 2*h*h + (h*96*128*2 + 2*h*8*128 + h*96 + 2*128) + 3*h*11264 + 5*h + 128896*h
	if mtp != 809390336 {
		t.Fatalf("MTP layer %.0f by hand", mtp)
	}
	ckptParams := 196956130368 + 3*mtp
	if math.Abs(ckptParams-199.4e9) > 0.05e9 {
		t.Errorf("checkpoint %.0f parameters by hand, published 199.4B", ckptParams)
	}
	ckpt := 2 * ckptParams
	total := got * 4
	t.Logf("over 4 GPUs %.1f GB, the checkpoint %.1f GB (%+.2f%%; %+.2f%% against it without the MTP layers)",
		total/1e9, ckpt/1e9, 100*(total/ckpt-1), 100*(total/(ckpt-2*3*mtp)-1))
	if d := total/ckpt - 1; d > 0 || d < -0.03 {
		t.Errorf("%.1f GB over 4 GPUs, not within 3%% below the %.1f GB checkpoint", total/1e9, ckpt/1e9)
	}
}
