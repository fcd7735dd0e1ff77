package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// qwen3VLInput reads catalog testdata's Qwen3-VL-235B-A22B config (the
// Qwen3VLMoeForConditionalGeneration wrapper, read through text_config) and
// gives its language model the attention shape of a smaller Qwen3-VL: the
// KV cache depends on the layer count, the KV heads and head_dim only.
func qwen3VLInput(t *testing.T, g *catalog.GPU, layers, kvHeads, maxLen int) *input.Input {
	t.Helper()
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/qwen3-vl-235b-a22b-instruct.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Wrapper != "qwen3_vl_moe" || m.HeadDim != 128 {
		t.Fatalf("wrapper %q, head_dim %d", m.Wrapper, m.HeadDim)
	}
	m.NumLayers, m.NumKVHeads = layers, kvHeads
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.11.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: maxLen}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestQwen3VLLogsFromLoggedMemory reproduces the KV lines of two public
// Qwen3-VL start-ups from their logged KV memory (dedicated test: neither
// log has what a calibration row needs, and neither checkpoint's weights
// are predicted).
//
// baidu/vLLM-Kunlun#330 (vLLM with the Kunlun XPU platform plugin, release
// not read; Qwen3-VL-32B-Instruct-INT8-Dynamic, one device, max_model_len
// 32,768): "Available KV cache memory: 41.98 GiB", "GPU KV cache size:
// 171,904 tokens", "Maximum concurrency for 32,768 tokens per request:
// 5.25x". Qwen3-VL-32B's text model is Qwen3-32B's shape (64 layers, 8 KV
// heads of 128): 64 × 8 × 128 × (K, V) × 2 B = 262,144 B per token; 41.98
// GiB holds 171,950 tokens, 10,746 blocks of 16 = 171,936 (the log's
// 171,904 is 2,686 blocks of 64: the plugin's block size, not read here;
// either is within 0.02%); 171,904 / 32,768 = 5.25x.
//
// xorbitsai/inference#4926 (Xinference v2.8 running vLLM; model
// "Qwen3-VL-Instruct", max_model_len 262,144): "(36.0 GiB KV cache is
// needed, which is larger than the available KV cache memory (6.94 GiB).
// Based on the available memory, the estimated maximum model length is
// 50512." 36.0 GiB / 262,144 = 147,456 B per token: Qwen3-VL-8B's (and
// 4B's) 36 layers × 8 KV heads × 128 × 2 × 2 B. 6.94 GiB (rounded) holds
// 50,528 tokens in 16-token blocks; the logged 50,512 is one block fewer
// (the unrounded memory ≈ 6.938 GiB).
//
// A public GitHub file found through the search index (index id
// 56336202239; the index does not name its repository) quotes a start-up of
// Qwen/Qwen3-VL-8B-Instruct on one GPU with a vLLM source build
// (v0.1.dev15312+g690e127b1, log of 04-22; utilization 0.85, max_model_len
// 4,096, max_num_seqs 5, enforce_eager, prefix caching on): "Model loading
// took 16.78 GiB", "Available KV cache memory: 22.46 GiB", "GPU KV cache
// size: 163,568 tokens", "Maximum concurrency for 4,096 tokens per request:
// 39.93x". The GPU is not named, so the available memory is not predicted.
// From the logged 22.46 GiB: 10,221 blocks of 16 × 147,456 B = 163,536
// tokens (−0.02%) and 39.93x. Its weights are 1.51 GiB more than Qwen3-8B's
// text model (15.27 GiB, the same shape): the vision encoder, which
// vlaunch counts for the wrapper (catalog.Encoder: 0.576 B parameters,
// 1.07 GiB in BF16), a longer RoPE cache and the DeepStack buffers.
func TestQwen3VLLogsFromLoggedMemory(t *testing.T) {
	kunlun := &catalog.GPU{ID: "custom", Name: "Kunlun XPU", MemoryMiB: 96 * 1024, IntraNodeKind: "pcie"}
	in := qwen3VLInput(t, kunlun, 64, 8, 32768)
	kv := KVBytes(in, Stage{First: 0, End: 64})
	if kv.BytesPerToken != 262144 {
		t.Fatalf("Qwen3-VL-32B: %d B per token, want 262,144", kv.BytesPerToken)
	}
	avail := 41.98 * GiB
	for _, block := range []int{16, 64} {
		tokens := int64(avail/float64(kv.BytesPerToken*int64(block))) * int64(block)
		if math.Abs(float64(tokens)/171904-1) > 0.001 {
			t.Errorf("block %d: %d tokens, the log says 171,904", block, tokens)
		}
		if block == 64 && tokens != 171904 {
			t.Errorf("64-token blocks: %d tokens, want the logged 171,904 exactly", tokens)
		}
		if c := float64(tokens) / 32768; math.Abs(c-5.25) > 0.005 {
			t.Errorf("block %d: concurrency %.3f, the log says 5.25x", block, c)
		}
	}

	g, _ := catalog.LookupGPU("h100")
	in = qwen3VLInput(t, g, 36, 8, 262144)
	kv = KVBytes(in, Stage{First: 0, End: 36})
	avail8B := 6.94 * GiB
	if need := float64(kv.SequenceBytes(262144, 16)) / GiB; kv.BytesPerToken != 147456 || need != 36.0 {
		t.Errorf("Qwen3-VL-8B: %d B per token, %.2f GiB for 262,144 tokens; the log says 36.0", kv.BytesPerToken, need)
	}
	if n := largestLen(kv, int64(avail8B), 16, 262144); n != 50528 || math.Abs(float64(n)/50512-1) > 0.001 {
		t.Errorf("longest request in 6.94 GiB: %d, the log says 50,512", n)
	}

	in = qwen3VLInput(t, g, 36, 8, 4096)
	kv = KVBytes(in, Stage{First: 0, End: 36})
	tokens := int64(22.46*GiB/float64(kv.BytesPerToken*16)) * 16
	if tokens != 163536 || math.Abs(float64(tokens)/163568-1) > 0.001 {
		t.Errorf("%d tokens in 22.46 GiB, the log says 163,568", tokens)
	}
	if c := float64(tokens) / 4096; math.Abs(c-39.93) > 0.01 {
		t.Errorf("concurrency %.3f, the log says 39.93x", c)
	}
	q, err := catalog.LookupModel("qwen3-8b")
	if err != nil {
		t.Fatal(err)
	}
	in8 := &input.Input{Model: q, GPU: g, VLLMVersion: "0.19.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	util, seqs := 0.85, 5
	if ds := in8.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 4096, MaxNumSeqs: &seqs, EnforceEager: true}); ds.HasErrors() {
		t.Fatal(ds)
	}
	text := Estimate(in8).PerGPU.WeightsGiB
	if math.Abs(16.78-text-1.51) > 0.01 {
		t.Errorf("text model %.2f GiB, 16.78 logged with the vision encoder: gap %.2f, want 1.51", text, 16.78-text)
	}
	// The same start-up with the wrapper: Qwen3-VL-8B's config as two
	// public copies quote it (text model Qwen3-8B's shape with 262,144
	// positions; vision depth 27, width 1152, MLP 4304, patch 16,
	// temporal patch 2, 2,304 position embeddings, merge 2, out 4096,
	// DeepStack at layers 8, 16, 24). Its encoder is 576,388,336
	// parameters (catalog TestEncoderCounts), 1.07 GiB in BF16; the longer
	// RoPE cache adds (262,144 − 40,960) × 128 × 2 B = 0.05 GiB; the three
	// DeepStack buffers 3 × max_num_batched_tokens × 4,096 × 2 B. The log
	// does not say max_num_batched_tokens: at the 8,192 vlaunch resolves
	// for the API server the prediction is 16.58 GiB (−1.2%); at 16,384
	// (0.375 GiB of buffers) it is 16.77 GiB, the logged 16.78 within
	// 0.1%.
	vl, err := catalog.ParseHFConfig([]byte(qwen3VL8BConfig))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		batched int
		want    float64
	}{{0, 16.58}, {16384, 16.77}} {
		inVL := &input.Input{Model: vl, GPU: g, VLLMVersion: "0.19.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
		es := resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 4096, MaxNumSeqs: &seqs, EnforceEager: true}
		if tc.batched > 0 {
			es.MaxNumBatchedTokens = &tc.batched
		}
		if ds := inVL.Resolve(es); ds.HasErrors() {
			t.Fatal(ds)
		}
		w := Estimate(inVL).PerGPU.WeightsGiB
		enc := 576388336 * 2 / GiB
		rope := (262144 - 40960) * 128 * 2 / GiB
		deep := float64(3*inVL.MaxNumBatchedTokens*4096*2) / GiB
		if math.Abs(w-text-enc-rope-deep) > 0.001 {
			t.Errorf("Qwen3-VL-8B %.3f GiB: text %.3f + encoder %.3f + RoPE %.3f + DeepStack %.3f", w, text, enc, rope, deep)
		}
		t.Logf("Qwen3-VL-8B, %d batched tokens: %.2f GiB (text %.2f), logged 16.78 (%+.1f%%)", inVL.MaxNumBatchedTokens, w, text, (w/16.78-1)*100)
		if math.Abs(w-tc.want) > 0.005 {
			t.Errorf("%d batched tokens: %.3f GiB, want %.2f", inVL.MaxNumBatchedTokens, w, tc.want)
		}
	}
}

// qwen3VL8BConfig is Qwen/Qwen3-VL-8B-Instruct's config.json reduced to
// what vlaunch reads, its values as public copies quote them (not a
// verbatim copy).
const qwen3VL8BConfig = `{"architectures": ["Qwen3VLForConditionalGeneration"], "model_type": "qwen3_vl",
 "tie_word_embeddings": false, "torch_dtype": "bfloat16",
 "text_config": {"model_type": "qwen3_vl_text", "hidden_size": 4096, "intermediate_size": 12288, "num_hidden_layers": 36,
  "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936, "max_position_embeddings": 262144,
  "rms_norm_eps": 1e-6, "rope_theta": 5000000, "rope_scaling": {"mrope_interleaved": true, "mrope_section": [24, 20, 20], "rope_type": "default"},
  "tie_word_embeddings": false, "torch_dtype": "bfloat16"},
 "vision_config": {"model_type": "qwen3_vl", "depth": 27, "hidden_size": 1152, "intermediate_size": 4304, "num_heads": 16,
  "in_channels": 3, "patch_size": 16, "temporal_patch_size": 2, "spatial_merge_size": 2, "num_position_embeddings": 2304,
  "out_hidden_size": 4096, "deepstack_visual_indexes": [8, 16, 24], "hidden_act": "gelu_pytorch_tanh"}}`

// TestKimiK2ThinkingLogFromLoggedMemory: the TP8 start-up of
// Kimi-K2-Thinking in vLLM's recipe (moonshotai/Kimi-K2-Think.md, 8×H200,
// a nightly of 2025-11-06, between 0.11.0 and 0.11.1; calibration case
// kimi-k2-thinking-recipe-h200-tp8) logs "Available KV cache memory: 46.80
// GiB" and "GPU KV cache size: 715,072 tokens". By hand: MLA, 61 × (512 +
// 64) × 2 B = 70,272 B per token on every rank; 46.80 GiB holds 715,094
// tokens, 11,173 blocks of 64 = 715,072, the logged figure, so the run used
// FlashMLA's 64-token block, 0.11.0's MLA default on Hopper
// (vllm.Release.MLABackend; from 0.11.1 FLASH_ATTN_MLA's 16-token blocks
// would give 715,088, so the nightly predates that default). The case
// predicts the 46.80 GiB end to end in TestMemoryCalibration.
func TestKimiK2ThinkingLogFromLoggedMemory(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/kimi-k2.5.json")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h200")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.11.0", Layout: input.Layout{TP: 8, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 262144}); ds.HasErrors() {
		t.Fatal(ds)
	}
	if b, _ := in.Release().MLABackend(9, false, false); b != vllm.MLAFlashMLA {
		t.Fatalf("0.11.0 MLA backend on Hopper: %s", b)
	}
	r := Estimate(in)
	if r.KVBytesPerToken != 61*576*2 || r.BlockSize != 64 {
		t.Fatalf("%d B per token, block %d", r.KVBytesPerToken, r.BlockSize)
	}
	avail := 46.80 * GiB
	if tokens := int64(avail/float64(r.KVBytesPerToken*64)) * 64; tokens != 715072 {
		t.Errorf("%d tokens from the logged memory, the log says 715,072", tokens)
	}
	if tokens := int64(avail/float64(r.KVBytesPerToken*16)) * 16; tokens != 715088 {
		t.Errorf("16-token blocks: %d", tokens)
	}
}

// TestGemma4LogV026 reproduces the KV lines of a complete public start-up
// of Gemma-4-31B-it in BF16 (vLLM 0.26.0, one B300, utilization 0.92,
// max_model_len 16,384, chunks of 8,192, async scheduling on; calibration
// case gemma4-31b-pfeiffer-b300-tp1: "Available KV cache memory: 182.37
// GiB", "GPU KV cache size: 217,116 tokens", "Maximum concurrency for
// 16,384 tokens per request: 13.25x") from the logged memory. The layout is
// vlaunch's: 50 sliding-window layers of 16 KV heads × 256 and 10 global
// ones of 4 × 512 (K and V both stored: vLLM's Gemma4Attention keeps a V
// slot for k_eq_v layers), 901,120 B per token over all layers; pages of
// 262,144 B (the global layers' block doubled to 32), 6 groups of 10
// layers, a block of 2,621,440 B: 182.37 GiB (182.375 at the top of its
// rounding) is 74,700 blocks. vLLM 0.26.0 prints max_concurrency ×
// max_model_len, and its sliding-window groups reserve the last 1,023
// tokens plus every batch in flight, 2 × 8,192 with async scheduling
// (vllm.Release.SlidingWindowInFlight): min(1,023 + 16,384, 16,384) =
// the whole request, ceil(16,384 / 16) + 1 = 1,025 pages a group, and
// 74,700 / (5 × 1,025 + 512) = 13.2517x, 217,116 tokens. One batch (0.25.1's
// rule) would charge 577 pages a group: 21.99x.
func TestGemma4LogV026(t *testing.T) {
	m, err := calConfig("../../catalog/testdata/hf/gemma-4-31b-it-nvfp4.verbatim.json", true)
	if err != nil {
		t.Fatal(err)
	}
	if m.CheckpointDType() == catalog.FormatNVFP4 {
		t.Fatalf("quantization_config kept: %s", m.CheckpointDType())
	}
	g, _ := catalog.LookupGPU("b300")
	cp := *g
	cp.MemoryMiB = 267.69 * 1024
	in := &input.Input{Model: m, GPU: &cp, VLLMVersion: "0.26.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	util, batched := 0.92, 8192
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 16384, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
		t.Fatal(ds)
	}
	kv := KVBytes(in, Stage{First: 0, End: m.NumLayers})
	if kv.BytesPerToken != 50*16*256*2*2+10*4*512*2*2 || kv.SlidingLayers != 50 {
		t.Fatalf("%d B per token, %d sliding layers", kv.BytesPerToken, kv.SlidingLayers)
	}
	const block = 10 * 262144
	if got := kv.SequenceBytes(16384, 16); got != (5*1025+512)*block {
		t.Fatalf("one 16,384-token request %d B, want %d (whole request in the sliding groups)", got, (5*1025+512)*block)
	}
	blocks := math.Floor(182.375 * GiB / block)
	if blocks != 74700 {
		t.Fatalf("%v blocks", blocks)
	}
	asConc, _ := in.Release().KVTokensAsConcurrency()
	tokens, ok := kv.ReportedTokens(182.375*GiB, 16384, asConc == vllm.Present)
	if !ok || tokens != 217116 {
		t.Errorf("GPU KV cache size %d, the log says 217,116", tokens)
	}
	if conc := float64(tokens) / 16384; math.Abs(conc-13.25) > 0.005 {
		t.Errorf("%.4fx, the log says 13.25x", conc)
	}
	// The same deployment on 0.25.1 keeps one batch beside the window.
	in.VLLMVersion = "0.25.1"
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 16384, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
		t.Fatal(ds)
	}
	if got := KVBytes(in, Stage{First: 0, End: m.NumLayers}).SequenceBytes(16384, 16); got != (5*577+512)*block {
		t.Errorf("0.25.1: one request %d B, want %d (577 pages a sliding group)", got, (5*577+512)*block)
	}
}
