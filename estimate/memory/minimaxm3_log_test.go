package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// MiniMax-M3 on 2 × B200, a public start-up log (published/vllm-memory-logs.yaml
// case minimax-m3-rtn-mxfp4-b200-tp2-v0231dev: a stored issue-style note whose
// repository the search index does not give, stored text id 60171799662).
// lm-eval's vLLM backend started vLLM 0.23.1rc1.dev550+g58d6a6e60 (a main build
// of 2026-06-29, after PR #45381 added MiniMax-M3 and before v0.24.0, the first
// release with it: vlaunch reads it with 0.24.0's rules) on a private
// compressed-tensors RTN conversion ("./M3-rtn-auto-vllm", MXFP4 experts on
// CutlassExpertsMxfp4, MXFP4 linears on FlashInferMxFp4LinearKernel; "Checkpoint
// size: 263.01 GiB"), tensor_parallel_size 2, gpu_memory_utilization 0.8,
// max_model_len 8192, max_num_batched_tokens 32768, max_num_seqs 128, prefix
// caching off, kv_cache_dtype auto, "Setting KV cache block size to 128 to match
// MiniMax-M3 sparse block size", indexer_kv_dtype bf16, multimodal on ("profiled
// with 4 video items of the maximum feature size", encoder budget 32768 tokens),
// VLLM_USE_BREAKABLE_CUDAGRAPH (torch.compile off, -cc.mode=none). Logged per
// GPU: "Model loading took 113.04 GiB", "Estimated CUDA graph memory: 1.97 GiB
// total", "Available KV cache memory: 16.81 GiB", "GPU KV cache size: 237,312
// tokens", "Maximum concurrency for 8,192 tokens per request: 28.97x". The GPU
// is not named: the kernels are SM100's (fmha_sm100, CutlassExpertsMxfp4), and
// the host's 1,879.95 GiB of RAM and 96 cores are an 8 × B200 node's (2 TiB);
// at utilization 0.8 a B300 would leave 83 GiB of non-KV memory, a B200 12.8.
const (
	m3LogWeightsGiB = 113.04
	m3LogAvailGiB   = 16.81
	m3LogTokens     = 237312
	m3LogConc       = 28.97
	m3LogMaxLen     = 8192
	m3LogCUDAGraph  = 1.97
)

// m3LogBytesPerToken is one token's KV on a GPU at TP 2, by hand: 60 layers ×
// K and V × max(1, 4 KV heads / 2) = 2 heads × 128 × 2 B = 61,440, and on each
// of the 57 sparse layers the indexer's bf16 key, 128 × 2 B = 256 (14,592):
// 76,032 B. One block of 128 tokens is 9,732,096 B.
const m3LogBytesPerToken = 60*2*2*128*2 + 57*128*2

func m3LogInput(t *testing.T) *input.Input {
	t.Helper()
	// The checkpoint's own config.json is not public; nvidia/MiniMax-M3-NVFP4's
	// wrapper (the same language model and vision tower, minimax_m3_vl) stands
	// in for the layout. Its weights are not the log's (NVFP4 experts, MXFP8
	// attention): the end-to-end test below substitutes the logged weights.
	m := hfFixture(t, "minimax-m3-nvfp4.reconstructed.json")
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	g, err := catalog.LookupGPU("b200")
	if err != nil {
		t.Fatal(err)
	}
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.24.0", Layout: input.Layout{TP: 2, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	block, seqs, batched := 128, 128, 32768
	es := resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: ptrFloat(0.8), MaxModelLen: m3LogMaxLen,
		BlockSize: &block, MaxNumSeqs: &seqs, MaxNumBatchedTokens: &batched}
	if ds := in.Resolve(es); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// m3LogMXFP4Input is m3LogInput, at release version, with the log's experts: the private
// conversion is compressed-tensors MXFP4 ("Using CutlassExpertsMxfp4 for
// MXFP4 MoE", "Using FlashInferMxFp4LinearKernel for MXFP4 GEMM"), so the
// stand-in's quantization is replaced by a compressed-tensors MXFP4 one
// (group 32, 4-bit weights). Its weights are not the log's either; the
// end-to-end test substitutes the logged weights as before.
func m3LogMXFP4Input(t *testing.T, version string) *input.Input {
	t.Helper()
	m := *hfFixture(t, "minimax-m3-nvfp4.reconstructed.json")
	m.Quant = catalog.Quantization{Method: "compressed-tensors", Format: catalog.FormatMXFP4, GroupSize: 32, WeightBits: []int{4}, Source: "config.json"}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	g, err := catalog.LookupGPU("b200")
	if err != nil {
		t.Fatal(err)
	}
	in := &input.Input{Model: &m, GPU: g, VLLMVersion: version, Layout: input.Layout{TP: 2, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	block, seqs, batched := 128, 128, 32768
	es := resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: ptrFloat(0.8), MaxModelLen: m3LogMaxLen,
		BlockSize: &block, MaxNumSeqs: &seqs, MaxNumBatchedTokens: &batched}
	if ds := in.Resolve(es); ds.HasErrors() {
		t.Fatal(ds)
	}
	if in.WeightsDType != "mxfp4" {
		t.Fatalf("weights %q, want mxfp4", in.WeightsDType)
	}
	return in
}

// TestMiniMaxM3LogKVFromLoggedMemory: from the logged available memory,
// vlaunch's KV layout of MiniMax-M3 at TP 2 prints what the log prints. The
// logged "16.81 GiB" is 16.805–16.815 GiB: floor(16.805 GiB / 9,732,096 B) =
// 1,854 blocks (16.815 would give 1,855), 1,854 × 128 = 237,312 tokens as
// logged, and 1,854 / ceil(8,192 / 128) = 28.97x as logged. This confirms the
// 76,032 B per token (the indexer's 256 B per sparse layer in bf16 at any TP,
// K/V split over the 2 ranks) and the 128-token block.
func TestMiniMaxM3LogKVFromLoggedMemory(t *testing.T) {
	in := m3LogInput(t)
	if in.BlockSize != 128 {
		t.Fatalf("block %d, want 128 (the log's 'Setting KV cache block size to 128')", in.BlockSize)
	}
	kv := Estimate(in).Stages[0].KV
	if kv.BytesPerToken != m3LogBytesPerToken || kv.IndexerLayers != 57 {
		t.Fatalf("%d B per token (%d indexer layers), want %d (57): %s", kv.BytesPerToken, kv.IndexerLayers, m3LogBytesPerToken, kv.Formula)
	}
	page := float64(m3LogBytesPerToken * 128)
	perSeq := float64(kv.SequenceBytes(m3LogMaxLen, 128))
	if perSeq != 64*page {
		t.Errorf("an 8,192-token request holds %.0f B, want 64 blocks of %.0f", perSeq, page)
	}
	for _, gib := range []float64{16.805, 16.81} {
		blocks := math.Floor(gib * GiB / page)
		tok := int64(blocks) * 128
		conc := blocks * page / perSeq
		if tok != m3LogTokens || math.Round(conc*100)/100 != m3LogConc {
			t.Errorf("from %.3f GiB: %d tokens, %.3fx; the log 237,312 and 28.97x", gib, tok, conc)
		}
	}
}

// TestMiniMaxM3LogEndToEnd holds the end-to-end prediction where it stands:
// issue #23's "available KV within 10%" is NOT met for this log. The budget
// is 0.8 × 178.36 GiB = 142.68; the log leaves 142.68 − 113.04 − 16.81 =
// 12.83 GiB of non-KV, non-weight memory (of which vLLM's CUDA-graph estimate
// is 1.97). vlaunch counts 8.94 (activation peak 4.88: the forward pass 2.25
// + the fused-MoE workspace 2.63, the sampler below them; outside PyTorch
// 4.06: CUDA runtime 0.26, NCCL 1.80, CUDA graphs 1.50 and the FlashInfer
// all-reduce + RMSNorm workspace a second time, 0.50), so with the logged
// weights it predicts 20.71 GiB available (+23%), 292,352 tokens and 35.69x
// (+23%). Before the workspace (branch memgap40): 21.21 GiB, +26%.
//
// The workspace (vllm.Release.EagerFIARNormWorkspace, fiARNormTerms): this
// build's MiniMaxM3DecoderLayer ends its attention with
// fused_allreduce_gemma_rms_norm, whose FlashInfer path takes at most 5,461
// tokens here and makes 514 MiB of symmetric memory on its first call; the
// profile run's 32,768 tokens skip it, so the call is in the warm-up of the
// first graph profile_cudagraph_memory captures — the log prints
// "Initialized FlashInfer Allreduce norm fusion workspace" right after
// "Profiling CUDA graph memory" — and vLLM subtracts it in the estimate
// (1.50 + 0.50 = 2.00 GiB against the logged 1.97) as well as outside
// PyTorch, measured after that profiling (within vlaunch's NCCL term, read
// off v0.19 logs whose compile pass made the same workspace).
//
// Sized from nvidia/MiniMax-M3-NVFP4's layout its weights are 116.69 GiB
// (+3.2% over the private checkpoint's), which would land at 17.06 GiB
// (+1.5%) by cancellation, not agreement: the test uses the logged weights.
// The rest is the experts' kernel, which this stand-in does not run: the
// log's MXFP4 W4A4 experts run CutlassExpertsMxfp4, whose per-call tensors
// vlaunch charges for compressed-tensors MXFP4 experts since branch
// models41 (cutlassMXFP4Layer); with them the log is reproduced to −0.6%
// (TestMiniMaxM3LogCutlassMXFP4). This test keeps the NVFP4 stand-in, whose
// experts take another path, at +23%.
func TestMiniMaxM3LogEndToEnd(t *testing.T) {
	in := m3LogInput(t)
	r := Estimate(in)
	s := r.Stages[0]
	avail := s.AvailableKVGiB + s.WeightsGiB - m3LogWeightsGiB
	page := float64(m3LogBytesPerToken * 128)
	blocks := math.Floor(avail * GiB / page)
	tok, conc := int64(blocks)*128, blocks/64
	t.Logf("weights %.2f GiB as NVFP4 (logged %.2f); with the logged weights: available %.2f GiB (logged %.2f, %+.1f%%), %d tokens (%+.1f%%), %.2fx (%+.1f%%); non-KV %.2f (log %.2f)",
		s.WeightsGiB, m3LogWeightsGiB, avail, m3LogAvailGiB, 100*(avail/m3LogAvailGiB-1), tok, 100*(float64(tok)/m3LogTokens-1),
		conc, 100*(conc/m3LogConc-1), r.PerGPU.ActivationGiB+r.PerGPU.OtherGiB, r.PerGPU.UsableGiB-m3LogWeightsGiB-m3LogAvailGiB)
	within(t, "usable GiB (0.8 × B200's 178.36)", r.PerGPU.UsableGiB, 142.684, 0.001)
	if off := avail/m3LogAvailGiB - 1; off < 0.21 || off > 0.25 {
		t.Errorf("available %.2f GiB with the logged weights, %+.1f%% off the log; was +23%%: update this test, the yaml case and docs/models-issue23.md", avail, 100*off)
	}
	if off := s.AvailableKVGiB/m3LogAvailGiB - 1; off < -0.01 || off > 0.04 {
		t.Errorf("available %.2f GiB with NVFP4 weights, %+.1f%% off the log; was +1.5%%", s.AvailableKVGiB, 100*off)
	}
	// The CUDA-graph estimate vLLM subtracts: the graphs (CUDAGraphGiB) and
	// the workspace made in its first capture, 514 MiB by hand.
	graphs := 0.0
	for _, x := range s.NonTorch {
		switch x.Name {
		case termFIARInGraphBudget:
			within(t, "workspace GiB", x.GiB, 514.0/1024, 1e-9)
			graphs += x.GiB
		case "CUDA graphs (vLLM estimate)":
			graphs += x.GiB
		}
	}
	within(t, "CUDA-graph estimate GiB (logged 1.97)", graphs, m3LogCUDAGraph, 0.02)
}

// TestMiniMaxM3LogCutlassMXFP4 reads the log with its own experts' kernel:
// CutlassExpertsMxfp4 (cutlassMXFP4Layer; vllm.Release.CutlassMXFP4Layer,
// read at 58d6a6e60 and v0.20.0–v0.24.0). By hand at TP 2, M = 32,768
// tokens, top-k 4, hidden K = 6,144, expert width N = 3,072 / 2 = 1,536,
// one shared expert:
//
//   - workspaces (kept across layers): max(32,768 × 4 × max(3,072, 6,144),
//     32,768 × 6,144) + 32,768 × 4 × 1,536 = 805,306,368 + 201,326,592
//     elements × 2 B = 1.875 GiB, in place of the Triton rule's 2.625;
//   - the layer: residual, input, shared output and output, 4 × 32,768 ×
//     6,144 × 2 B = 1.5 GiB, plus the shuffled input, shuffled c3 and the
//     weighted product, 3 × 1.5 GiB, and the sum, 0.375 GiB: 6.375 GiB;
//     and what vlaunch takes the compiled graph to hold across the
//     attention op (pieceInputs: the old residual 6,144 + the attention
//     output 32 heads × 128 = 10,240 per token, 0.625 GiB): 7.0 GiB, above
//     the forward pass's 2.25 GiB;
//
// so the activation peak is 7.0 + 1.875 = 8.875 GiB (was 2.25 + 2.625 =
// 4.875), 4.0 GiB more. With the logged weights: available 16.71 GiB
// against the logged 16.81 (−0.6%; was +23%), 235,904 tokens and 28.80x
// (−0.6%), within issue #23's 10%. The log ran without torch.compile
// (VLLM_USE_BREAKABLE_CUDAGRAPH), which vlaunch's input does not express:
// without the held graph inputs the layer is 6.375 GiB and the prediction
// 17.33 GiB (+3.1%), within 10% as well.
func TestMiniMaxM3LogCutlassMXFP4(t *testing.T) {
	in := m3LogMXFP4Input(t, "0.24.0")
	r := Estimate(in)
	s := r.Stages[0]
	var layer, ws float64
	for _, x := range r.Activation {
		switch x.Name {
		case termCutlassMXFP4Layer:
			layer = x.GiB
		case termMoEWorkspace:
			ws = x.GiB
		}
	}
	within(t, "CUTLASS layer GiB", layer, 7.0, 1e-9)
	within(t, "CUTLASS workspaces GiB", ws, 1.875, 1e-9)
	within(t, "activation peak GiB", r.PerGPU.ActivationGiB, 8.875, 1e-9)
	avail := s.AvailableKVGiB + s.WeightsGiB - m3LogWeightsGiB
	page := float64(m3LogBytesPerToken * 128)
	blocks := math.Floor(avail * GiB / page)
	tok, conc := int64(blocks)*128, blocks/64
	t.Logf("with the logged weights: available %.2f GiB (logged %.2f, %+.1f%%), %d tokens (%+.1f%%), %.2fx (%+.1f%%)",
		avail, m3LogAvailGiB, 100*(avail/m3LogAvailGiB-1), tok, 100*(float64(tok)/m3LogTokens-1), conc, 100*(conc/m3LogConc-1))
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"available GiB", avail, m3LogAvailGiB}, {"KV tokens", float64(tok), m3LogTokens}, {"max concurrency", conc, m3LogConc}} {
		if off := c.got/c.want - 1; off < -0.02 || off > 0.01 {
			t.Errorf("%s %.2f, %+.1f%% off the log's %.2f; was -0.6%%: update this test, the yaml case and docs/models-issue23.md", c.what, c.got, 100*off, c.want)
		}
	}
	// The release's gate: 0.19.0 has no CutlassExpertsMxfp4 (Marlin then),
	// 0.25.0 was not read; both keep the Triton rule.
	for _, v := range []string{"0.19.0", "0.25.0"} {
		if _, _, ok := cutlassMXFP4Layer(m3LogMXFP4Input(t, v)); ok {
			t.Errorf("%s: CUTLASS MXFP4 layer charged", v)
		}
	}
	// Data parallelism (tokens under DP not traced) and expert parallelism
	// (CutlassExpertsMxfp4 takes ep_size 1) keep the Triton rule.
	for _, edit := range []func(*input.Input){func(in *input.Input) { in.Layout.DP = 2 }, func(in *input.Input) { in.Layout.EP = true }} {
		in2 := m3LogMXFP4Input(t, "0.24.0")
		edit(in2)
		if _, _, ok := cutlassMXFP4Layer(in2); ok {
			t.Errorf("%+v: CUTLASS MXFP4 layer charged", in2.Layout)
		}
	}
	// The NVFP4 stand-in is not on this path.
	if _, _, ok := cutlassMXFP4Layer(m3LogInput(t)); ok {
		t.Error("NVFP4 experts charged as CutlassExpertsMxfp4")
	}
}
