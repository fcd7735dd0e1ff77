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
// Not modelled and so candidates for the remaining 3.89 GiB (none
// established from the source): the encoder profile of 4 video items
// (vlaunch sizes the encoder profile of Qwen3-VL only; encoderProfileGiB,
// at most 0.375 GiB held), the eager forward pass this build runs
// (VLLM_USE_BREAKABLE_CUDAGRAPH turns torch.compile off), the MXFP4 W4A4
// experts' activation quantisation — above all the experts' kernel: the
// log's MXFP4 W4A4 experts run CutlassExpertsMxfp4, whose
// run_cutlass_moe_mxfp4 (58d6a6e60, v0.24.0) holds, beside its 1.50 + 0.375
// GiB of workspaces, row-shuffled copies of its input and of the down
// projection's output, the top-k-weighted product and the sum at M = 32,768:
// 6.75 GiB at the sum against the 2.62 GiB Triton-rule workspace charged
// here; not modelled, the stand-in checkpoint's experts being NVFP4
// (docs/calibration-memory.md, "Open misses").
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
