package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestHybridLogV017 reproduces a vLLM 0.17.0 start-up log a public
// walk-through of its source explains (a Gated DeltaNet hybrid of 40 layers,
// 10 of them full attention with 2 KV heads of 256, an FP8 KV cache, one
// GPU, 6.08 GiB of KV memory): "Setting attention block size to 2096
// tokens", 304 blocks, "GPU KV cache size: 159,296 tokens" and "Maximum
// concurrency for 65,536 tokens per request: 8.00x". The walk-through gives
// neither the model's name nor its linear layers' shape; Qwen3.5's (16 key
// and 32 value heads of 128, conv kernel 4, float32 recurrent state: catalog
// testdata's Qwen3.5-397B config with 40 layers and 32 value heads) yields a
// state page of (2 × 16 × 128 + 32 × 128) × 3 × 2 + 32 × 128 × 128 × 4 =
// 2,146,304 B, hence the logged block: 16 × ceil(2,146,304 / (16 × 2 × 2 ×
// 256 × 1)) = 2,096. Then 6.08 GiB / (2,146,304 × 10 layers per group) = 304
// blocks; the log's token count is 304 // 4 groups × 2,096 (0.17.0 divides
// blocks among groups); a 65,536-token request takes 32 attention pages and
// 2 per state group (align): 304 / 38 = 8.00.
func TestHybridLogV017(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/qwen3.5-397b-a17b.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	m.NumLayers, m.GDN.NumValueHeads = 40, 32
	m.LayerTypes = m.LayerTypes[:40]
	g, _ := catalog.LookupGPU("h100")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.17.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "fp8", Util: &util, MaxModelLen: 65536}); ds.HasErrors() {
		t.Fatal(ds)
	}
	kv := KVBytes(in, Stage{First: 0, End: 40})
	if kv.HybridBlock != 2096 || kv.StatePages != 2 || kv.Layers != 10 || kv.LinearLayers != 30 {
		t.Fatalf("block %d, state pages %d, layers %d + %d linear", kv.HybridBlock, kv.StatePages, kv.Layers, kv.LinearLayers)
	}
	avail := 6.08 * GiB
	if tokens, ok := kv.ReportedTokens(avail, 65536, false); !ok || tokens != 159296 {
		t.Errorf("GPU KV cache size %d, the log says 159,296", tokens)
	}
	blocks := math.Floor(avail / (2146304 * 10))
	if c := blocks * 2146304 * 10 / float64(kv.SequenceBytes(65536, 2096)); blocks != 304 || math.Abs(c-8.00) > 0.005 {
		t.Errorf("%v blocks, concurrency %.3f; the log says 304 and 8.00x", blocks, c)
	}
}

// TestHybridLogV024 reproduces the KV lines of a public vLLM 0.24.0
// start-up of Qwen3.6-35B-A3B (an NVFP4 build, one RTX 5090, fp8 KV cache,
// prefix caching on, max_model_len 131,072: noonghunna/club-3090#612,
// "Available KV cache memory: 5.98 GiB", "GPU KV cache size: 567,978
// tokens", "Maximum concurrency for 131,072 tokens per request: 4.33x")
// from its logged available memory. The layer shapes are Qwen3.5-35B-A3B's
// config.json (NVIDIA aiconfigurator's copy at 095f58a5: 40 layers, every
// 4th full attention with 2 KV heads of 256, 30 Gated DeltaNet layers of 16
// key and 32 value heads of 128, conv kernel 4, mamba_ssm_dtype float32),
// the same as TestHybridLogV017's. By hand: the state page 2,146,304 B sets
// the block to 2,096 tokens (page 2,096 × 2 × 2 × 256 × 1 B = 2,146,304 B),
// layers grouped 10 at a time (1 attention, 3 state groups), a block of 10
// pages = 21,463,040 B: 5.98 GiB makes 299 blocks; a 131,072-token request
// takes ceil(131,072 / 2,096) = 63 attention pages and 2 per state group
// (align), 69 in all: 299 / 69 = 4.33x, and 0.24.0 prints max_concurrency ×
// max_model_len = 567,978 tokens (vllm.Release.KVTokensAsConcurrency).
func TestHybridLogV024(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/qwen3.5-397b-a17b.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	m.NumLayers, m.GDN.NumValueHeads = 40, 32
	m.LayerTypes = m.LayerTypes[:40]
	g := &catalog.GPU{ID: "custom", Name: "NVIDIA GeForce RTX 5090", MemoryMiB: 32607, ComputeMajor: 12, IntraNodeKind: "pcie"}
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.24.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	util, seqs, batched := 0.9, 1, 8192
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "fp8", Util: &util, MaxModelLen: 131072, MaxNumSeqs: &seqs, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
		t.Fatal(ds)
	}
	kv := KVBytes(in, Stage{First: 0, End: 40})
	if kv.HybridBlock != 2096 || kv.StatePages != 2 {
		t.Fatalf("block %d, state pages %d", kv.HybridBlock, kv.StatePages)
	}
	avail := 5.98 * GiB
	const block = 10 * 2146304
	blocks := math.Floor(avail / block)
	if blocks != 299 {
		t.Fatalf("%v blocks", blocks)
	}
	if got := kv.SequenceBytes(131072, 2096); got != 69*block {
		t.Errorf("one 131,072-token request %d B, want 69 blocks", got)
	}
	asConc, _ := in.Release().KVTokensAsConcurrency()
	tokens, ok := kv.ReportedTokens(avail, 131072, asConc == vllm.Present)
	if !ok || tokens != 567978 {
		t.Errorf("GPU KV cache size %d, the log says 567,978", tokens)
	}
	if c := blocks / 69; math.Abs(c-4.33) > 0.005 {
		t.Errorf("concurrency %.3f, the log says 4.33x", c)
	}
}

// TestNemotronHLogV0191 reproduces the KV lines of a public vLLM 0.19.1
// start-up of Nemotron-Cascade-2-30B-A3B-NVFP4 (nemotron_h, the
// architecture of Nemotron-3 Nano 30B-A3B whose config catalog/testdata
// holds; one H100, fp8 KV cache, mamba_ssm_cache_dtype float32,
// max_model_len 262,144, prefix caching off by default:
// dt-lindberg/asp-arc docs/docs.improving_prompt_with_syntax_guide.md at
// fb58db2, "Setting attention block size to 4176 tokens", "Add 1 padding
// layers", "Available KV cache memory: 68.97 GiB", "GPU KV cache size:
// 4,819,104 tokens", "Maximum concurrency for 262,144 tokens per request:
// 86.16x") from its logged available memory. By hand: one Mamba-2 layer's
// state at TP 1 (conv (4096 + 2 × 8 × 128) × 3 × 2 B + temporal 64 × 64 ×
// 128 × 4 B = 2,134,016 B) needs a 4,176-token attention block (16 ×
// ceil(2,134,016 / (16 × 2 × 2 × 128 × 1 B))), a page of 2,138,112 B; the
// 6 attention and 23 Mamba layers are grouped 6 at a time (1 + 4 groups,
// one padding layer), a block of 6 pages = 12,828,672 B: 68.97 GiB makes
// 5,772 blocks and 0.19.1 prints 5,772 // 5 × 4,176 = 4,819,104 tokens; a
// 262,144-token request takes ceil(262,144 / 4,176) = 63 attention pages
// and, without prefix caching (mamba_cache_mode none), one page per state
// group: 5,772 / 67 = 86.15x (the log's 86.16 from the unrounded memory).
func TestNemotronHLogV0191(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/nemotron-3-nano-30b-a3b.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h100")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.19.1", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	util, seqs, batched := 0.95, 40, 8192
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "fp8", Util: &util, MaxModelLen: 262144, MaxNumSeqs: &seqs, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
		t.Fatal(ds)
	}
	kv := KVBytes(in, Stage{First: 0, End: m.NumLayers})
	if kv.HybridBlock != 4176 || kv.StatePages != 1 || kv.Layers != 6 || kv.MambaLayers != 23 {
		t.Fatalf("block %d, state pages %d, %d attention and %d Mamba layers", kv.HybridBlock, kv.StatePages, kv.Layers, kv.MambaLayers)
	}
	avail := 68.97 * GiB
	const block = 6 * 2138112
	blocks := math.Floor(avail / block)
	if blocks != 5772 {
		t.Fatalf("%v blocks", blocks)
	}
	if tokens, ok := kv.ReportedTokens(avail, 262144, false); !ok || tokens != 4819104 {
		t.Errorf("GPU KV cache size %d, the log says 4,819,104", tokens)
	}
	if got := kv.SequenceBytes(262144, 4176); got != 67*block {
		t.Errorf("one 262,144-token request %d B, want 67 blocks", got)
	}
	if c := blocks / 67; math.Abs(c-86.16) > 0.02 {
		t.Errorf("concurrency %.3f, the log says 86.16x", c)
	}
}

// TestQwen3NextLogV0102EndToEnd reproduces a complete public vLLM 0.10.2
// start-up of Qwen3-Next-80B-A3B-Instruct in BF16 (TP 2 on H200, every
// setting at its default: utilization 0.9, max_model_len 262,144, 8,192
// batched tokens, 1,024 sequences; published/vllm-memory-logs.yaml,
// qwen3next-80b-instruct-h200-tp2-v0102) end to end, the way
// TestMemoryCalibration replays it, and derives each logged figure by hand.
//
// KV, per TP rank: 12 full-attention layers of 1 of 2 KV heads of 256
// (2 × 256 × 2 B = 1,024 B per token and layer) and 36 Gated DeltaNet
// layers whose state is conv (2 × 16 × 128 + 32 × 128) / 2 × 3 × 2 B =
// 24,576 B plus temporal 16 × 128 × 128 × 2 B = 524,288 B = 548,864 B.
// "Setting attention block size to 544 tokens" = 16 × ceil(548,864 /
// (16 × 1,024)); the page is 557,056 B ("Padding mamba page size by
// 1.49%"); layers grouped 12 at a time (1 attention + 3 state groups), a
// block of 12 pages = 6,684,672 B; the logged 44.59 GiB holds 7,162 blocks
// ("num_gpu_blocks is: 7162") and 0.10.2 prints 7,162 // 4 × 544 = 973,760
// tokens; a 262,144-token request takes ceil(262,144 / 544) = 482 attention
// pages and, prefix caching being off for hybrids ("Hybrid or mamba-based
// model detected: disabling prefix caching"), one page per state group:
// 7,162 / 485 = 14.77x.
//
// Available memory: 0.9 × 139.81 GiB = 125.83 GiB ("Desired GPU memory
// utilization is (0.9, 125.83 GiB)") − 74.28 GiB of weights − the peak
// activation − non-torch memory. The log says FlashInfer is not installed,
// so the dummy sampler's top-k/top-p over 1,024 rows × 151,936 logits is
// PyTorch's sort (vllm.Release.ProfileSampler): 39 B per logit, 5.65 GiB,
// + 8,192 × 2,048 × 2 B of hidden states + the fused-MoE workspace 8,192 ×
// top-k 10 × (3 × 256 + 2,048) × 2 B = 0.43 GiB: 6.11 GiB against the
// logged 5.58 (15 B per logit, the FlashInfer path vlaunch assumes for
// 0.10.2 when it is installed, would give 2.63; the sort and hidden states
// alone are 5.68, so 0.10.2 may free the MoE workspace before sampling, not
// read); non-torch 0.26 + 1.8 GiB against the logged 1.38. Available 43.38
// GiB against 44.59 (−2.7%).
func TestQwen3NextLogV0102EndToEnd(t *testing.T) {
	m, err := catalog.LookupModel("qwen3-next-80b-a3b")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h200")
	gpu := *g
	gpu.MemoryMiB = 139.81 * 1024 // "Free memory on device (139.21/139.81 GiB)"
	in := &input.Input{Model: m, GPU: &gpu, VLLMVersion: "0.10.2", Layout: input.Layout{TP: 2, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 262144}); ds.HasErrors() {
		t.Fatal(ds)
	}
	if in.MaxNumSeqs != 1024 || in.MaxNumBatchedTokens != 8192 {
		// 8,192 is logged ("max_num_batched_tokens=8192"); 1,024 is
		// 0.10.2's API-server default on a GPU of 70 GiB or more.
		t.Fatalf("defaults %d sequences, %d batched tokens; want 1,024 and 8,192", in.MaxNumSeqs, in.MaxNumBatchedTokens)
	}
	kv := KVBytes(in, Stage{First: 0, End: m.NumLayers})
	if kv.HybridBlock != 544 || kv.StatePages != 1 || kv.Layers != 12 || kv.LinearLayers != 36 {
		t.Fatalf("block %d, state pages %d, %d attention and %d linear layers", kv.HybridBlock, kv.StatePages, kv.Layers, kv.LinearLayers)
	}
	const state = (2*16*128+32*128)/2*3*2 + 16*128*128*2
	if kv.StateBytesPerSeq != 36*state {
		t.Errorf("state %d B per sequence, want 36 × %d", kv.StateBytesPerSeq, state)
	}
	const block = 12 * 544 * 1024 // 12 pages of 557,056 B
	logged := 44.59 * GiB
	if b := math.Floor(logged / block); b != 7162 {
		t.Errorf("%v blocks from the logged memory, the log says 7,162", b)
	}
	if tokens, ok := kv.ReportedTokens(logged, 262144, false); !ok || tokens != 973760 {
		t.Errorf("GPU KV cache size %d from the logged memory, the log says 973,760", tokens)
	}
	if got := kv.SequenceBytes(262144, 544); got != 485*block {
		t.Errorf("one 262,144-token request %d B, want 485 blocks", got)
	}

	// End to end, FlashInfer absent as logged.
	in.Env = map[string]string{vllm.FlashInferSamplerVariable: "0"}
	rep := Estimate(in)
	s := rep.Stages[0]
	if math.Abs(s.WeightsGiB-74.2812) > 0.01 {
		t.Errorf("weights %.4f GiB, the log says 74.2812", s.WeightsGiB)
	}
	sort := 1024 * 151936 * float64(SamplerBytesPerLogit+vllm.SortSamplerBytesPerLogit-vllm.KernelSamplerBytesPerLogit)
	moe := 8192 * 10 * (3*256 + 2048) * 2.0
	if want := (sort + 8192*2048*2 + moe) / GiB; math.Abs(s.Activation.PeakGiB-want) > 1e-9 {
		t.Errorf("peak activation %.3f GiB, want sampler sort + hidden states + MoE workspace %.3f", s.Activation.PeakGiB, want)
	}
	avail := 0.9*139.81 - s.WeightsGiB - s.Activation.PeakGiB - (NonTorchBaseGiB + CollectivesGiB)
	if math.Abs(s.AvailableKVGiB-avail) > 1e-9 || math.Abs(s.AvailableKVGiB-44.59)/44.59 > 0.10 {
		t.Errorf("available %.2f GiB (by hand %.2f), the log says 44.59", s.AvailableKVGiB, avail)
	}
	blocks := math.Floor(s.AvailableKVGiB * GiB / block)
	if want := int64(blocks) / 4 * 544; rep.KVTokensLogged != want || math.Abs(float64(want)-973760)/973760 > 0.10 {
		t.Errorf("GPU KV cache size %d predicted (by hand %d), the log says 973,760", rep.KVTokensLogged, want)
	}
	if c := rep.MaxConcurrencyAtMaxModelLen; math.Abs(c-blocks/485) > 0.005 || math.Abs(c-14.77)/14.77 > 0.10 {
		t.Errorf("maximum concurrency %.2f predicted (by hand %.2f), the log says 14.77x", c, blocks/485)
	}
}

// TestNemotronHLogV0191EndToEnd reproduces a complete public vLLM 0.19.1
// start-up of Nemotron-Cascade-2-30B-A3B-NVFP4 (Nemotron-3 Nano's
// architecture, ModelOpt NVFP4 run weight-only through Marlin on a 94 GB
// H100, fp8 KV cache, float32 SSM state, max_model_len 220,000, 16,384
// batched tokens, utilization 0.9 by default: published/vllm-memory-logs.yaml,
// nemotron-cascade2-nvfp4-h100-94g-tp1-v0191, dt-lindberg/asp-arc
// slurm_logs/seed_11_22313965.out at 148fe79) end to end, as
// TestMemoryCalibration replays it, and derives each figure by hand. The
// device total (93.10 GiB) and the checkpoint's exclusion list (NVIDIA's
// Nano NVFP4 recipe) are inferred: the case's notes say from what.
//
// Weights: embeddings and lm_head 2 × 131,072 × 2,688 × 2 B; the attention
// component (6 attention layers' q/k/v/o and 23 Mamba-2 mixers, 1,031,448,896
// parameters with conv1d, dt_bias, A, D and the gated norm) at 0.5625 B for
// the 658,022,400 NVFP4 ones and 2 B for the rest; 23 × 128 routed experts
// and 23 shared experts (up + down, relu²) at 0.5625 B; the float32 router
// and its bias; 53 norms; no RoPE cache (Nemotron-H's attention has no
// positional encoding): 18.011 GiB against the logged 18.03 (−0.1%; the same
// checkpoint's safetensors are "Checkpoint size: 18.01 GiB" in a 0.20.1rc1 log).
//
// Available: 0.9 × 93.10 GiB − weights − the profile's peak (the sampler's
// 1,024 rows × 131,072 logits × 15 B and 16,384 × 2,688 × 2 B of hidden
// states, with the fused-MoE workspace 16,384 × top-k 6 × (3 × 1,856 +
// 2,688) × 2 B) − 0.26 GiB outside PyTorch: 62.05 GiB against 62.4 (−0.6%;
// 0.19.1 does not yet subtract the 0.64 GiB graph estimate, as its log says).
// KV (TestNemotronHLogV0191): 4,176-token blocks of 6 pages of 2,138,112 B;
// "GPU KV cache size" = blocks // 5 × 4,176; a 220,000-token request takes 53
// attention pages and one per state group, 57 blocks: logged 5,222 blocks,
// 4,359,744 tokens, 91.61x.
func TestNemotronHLogV0191EndToEnd(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/ckpt/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4/config.json")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h100")
	gpu := *g
	gpu.MemoryMiB = 93.10 * 1024 // inferred (the case's notes)
	in := &input.Input{Model: m, GPU: &gpu, VLLMVersion: "0.19.1", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 4}}
	util, batched := 0.9, 16384
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "fp8", Util: &util, MaxModelLen: 220000, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
		t.Fatal(ds)
	}
	if in.MaxNumSeqs != 1024 {
		// LLM(...) on a GPU of 70 GiB or more: 1,024 sequences (the logged
		// 512-wide graph captures need at least 512).
		t.Fatalf("max_num_seqs %d", in.MaxNumSeqs)
	}
	kv := KVBytes(in, Stage{First: 0, End: m.NumLayers})
	if kv.HybridBlock != 4176 || kv.StatePages != 1 {
		t.Fatalf("block %d, state pages %d", kv.HybridBlock, kv.StatePages)
	}

	rep := Estimate(in)
	s := rep.Stages[0]
	const nvfp4 = 0.5 + 1.0/16
	share := 658022400.0 / 1030643712
	weights := 2*131072*2688*2.0 + // embeddings, lm_head
		1031448896*(share*nvfp4+(1-share)*2) + // attention + Mamba-2 mixers
		(23*128*2*2688*1856+23*2*2688*3712)*nvfp4 + // routed and shared experts
		23*(2688*128+128)*4.0 + 53*2688*2.0 // router, norms
	if math.Abs(s.WeightsGiB*GiB-weights) > 1 || math.Abs(s.WeightsGiB-18.03)/18.03 > 0.03 {
		t.Errorf("weights %.4f GiB (by hand %.4f), the log says 18.03", s.WeightsGiB, weights/GiB)
	}
	peak := (1024*131072*float64(SamplerBytesPerLogit) + 16384*2688*2 + 16384*6*(3*1856+2688)*2) / GiB
	if math.Abs(s.Activation.PeakGiB-peak) > 1e-9 || s.NonTorchGiB != NonTorchBaseGiB {
		t.Errorf("peak activation %.4f (by hand %.4f), non-torch %.2f", s.Activation.PeakGiB, peak, s.NonTorchGiB)
	}
	avail := 0.9*93.10 - weights/GiB - peak - NonTorchBaseGiB
	if math.Abs(s.AvailableKVGiB-avail) > 1e-9 || math.Abs(s.AvailableKVGiB-62.4)/62.4 > 0.10 {
		t.Errorf("available %.3f GiB (by hand %.3f), the log says 62.4", s.AvailableKVGiB, avail)
	}
	const block = 6 * 2138112
	if b := math.Floor(62.4 * GiB / block); b != 5222 {
		t.Errorf("%v blocks from the logged memory, want 5,222", b)
	}
	if got := kv.SequenceBytes(220000, 4176); got != 57*block {
		t.Errorf("one 220,000-token request %d B, want 57 blocks", got)
	}
	blocks := math.Floor(avail * GiB / block)
	if want := int64(blocks) / 5 * 4176; rep.KVTokensLogged != want || math.Abs(float64(want)-4359744)/4359744 > 0.10 {
		t.Errorf("GPU KV cache size %d predicted (by hand %d), the log says 4,359,744", rep.KVTokensLogged, want)
	}
	// vlaunch divides its pool in 16-token units (91.11; whole 4,176-token
	// blocks give 91.11 too, 5,193 / 57); vLLM whole blocks (the logged
	// 5,222 / 57 = 91.61).
	if c := rep.MaxConcurrencyAtMaxModelLen; math.Abs(c-avail*GiB/block/57) > 1e-3 || math.Abs(c-91.61)/91.61 > 0.10 {
		t.Errorf("maximum concurrency %.2f predicted (by hand %.2f), the log says 91.61x", c, avail*GiB/block/57)
	}
	t.Logf("weights %.2f / 18.03, available %.2f / 62.4, tokens %d / 4,359,744, concurrency %.2f / 91.61",
		s.WeightsGiB, s.AvailableKVGiB, rep.KVTokensLogged, rep.MaxConcurrencyAtMaxModelLen)
}

// TestNemotronNano9Bv2Weights sizes NVIDIA-Nemotron-Nano-9B-v2 (nemotron_h
// with dense MLP layers: 27 Mamba-2 ('M'), 25 MLP ('-') and 4 attention ('*')
// layers; catalog/testdata/hf/nemotron-nano-9b-v2.reconstructed.json) as a
// public vLLM 0.10.1 start-up on an L40S loaded it ("Model loading took
// 16.5557 GiB", vllm-project/vllm#23230, before it ran out of memory). By
// hand, BF16: embeddings and lm_head 2 × 131,072 × 4,480; per Mamba-2 layer
// in_proj 4,480 × (2 × 10,240 + 2 × 8 × 128 + 128), conv1d (10,240 + 2,048)
// × 4 with its bias, dt_bias/A/D 3 × 128, the gated norm 10,240, out_proj
// 10,240 × 4,480; per MLP layer up + down 2 × 4,480 × 15,680 (relu², no
// gate); per attention layer q/o 2 × 4,480 × 5,120 and k/v 2 × 4,480 × 1,024;
// 57 norms of 4,480; no RoPE cache: 8,888,227,328 parameters, 16.5556 GiB.
func TestNemotronNano9Bv2Weights(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/nemotron-nano-9b-v2.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("l40s")
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.10.1", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util}); ds.HasErrors() {
		t.Fatal(ds)
	}
	const h = 4480.0
	mamba := h*(2*10240+2*8*128+128) + (10240+2048)*4 + (10240 + 2048) + 3*128 + 10240 + 10240*h
	mlp := 2 * h * 15680
	attn := 2*h*5120 + 2*h*1024
	params := 2*131072*h + 27*mamba + 25*mlp + 4*attn + 57*h
	if params != 8888227328 {
		t.Fatalf("by hand %.0f parameters", params)
	}
	w := Estimate(in).Stages[0].WeightsGiB
	if math.Abs(w*GiB-2*params) > 1 || math.Abs(w-16.5557)/16.5557 > 0.03 {
		t.Errorf("weights %.4f GiB (by hand %.4f), the log says 16.5557", w, 2*params/GiB)
	}
}
