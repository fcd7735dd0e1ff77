package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestDeepseekV4DecodeReadsWindowAndCompressed: a DeepSeek-V4-Flash decode
// step reads, per layer, the sliding window (128) and the compressed entries
// vLLM's FlashMLA call is given (dsv4.go): the indexer's top-k (512) of the
// context/4 on C4A layers, all context/128 on C128A layers; the indexer
// scans every context/4 key. Flash's first 43 compress_ratios: 2 × 0, 21 ×
// 4, 20 × 128. By hand, one sequence at context C:
//
//	entries read  = 43 × min(C, 128) + 21 × min(512, C/4) + 20 × C/128
//	entries written = 43 + 21/4 + 20/128 (one token)
//	attention bytes = 584 × (read + written)
//	indexer bytes = 21 × 132 × (C/4 + 1/4), FLOPs 21 × 2·64·128 × C/4
//
// 8K: 5,504 + 10,752 + 1,280 = 17,536 entries; 128K: 5,504 + 10,752 +
// 20,480 = 36,736 — 2.1× for 16× the context, where full attention over
// 2 × 512 bytes per token per layer would read 43 × 1,024 × C.
func TestDeepseekV4DecodeReadsWindowAndCompressed(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	if sw, c4, c128 := m.DSV4.LayersByRatio(0, m.NumLayers); m.NumLayers != 43 || sw != 2 || c4 != 21 || c128 != 20 {
		t.Fatalf("Flash: %d layers, %d/%d/%d SWA-only/C4A/C128A", m.NumLayers, sw, c4, c128)
	}
	hw := NewHardware(perfGPU(t, "h200"), 8, 0, 2, 0, 0, 0)
	sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, EP: true, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff})
	written := 43 + 21.0/4 + 20.0/128
	for _, tt := range []struct {
		ctx, read float64
	}{
		{8192, 43*128 + 21*512 + 20*64},
		{131072, 43*128 + 21*512 + 20*1024},
		{64, 43*64 + 21*16 + 20*0.5}, // inside the window and the top-k
	} {
		l := RankLoad{DecodeSeqs: 1, DecodeCtx: tt.ctx}
		if got, want := sm.kvBytes(l), 584*(tt.read+written); math.Abs(got/want-1) > 1e-12 {
			t.Errorf("ctx %v: attention bytes %.0f, hand %.0f", tt.ctx, got, want)
		}
		f, b := sm.indexerCost(l)
		if wantF, wantB := 21*2*64*128*tt.ctx/4, 21*132*(tt.ctx/4+0.25); math.Abs(f/wantF-1) > 1e-12 || math.Abs(b/wantB-1) > 1e-12 {
			t.Errorf("ctx %v: indexer %.4g FLOPs %.4g B, hand %.4g and %.4g", tt.ctx, f, b, wantF, wantB)
		}
		// FlashMLA pads a TP-8 rank's 8 heads to 64: 4 × 64 × 512 FLOPs
		// per attended entry.
		if got, want := sm.attnFLOPs(l, true), 4*64*512*tt.read; math.Abs(got/want-1) > 1e-12 {
			t.Errorf("ctx %v: attention FLOPs %.4g, hand %.4g", tt.ctx, got, want)
		}
	}
	short, long := sm.kvBytes(RankLoad{DecodeSeqs: 1, DecodeCtx: 8192}), sm.kvBytes(RankLoad{DecodeSeqs: 1, DecodeCtx: 131072})
	if r := long / short; r > 2.2 || r < 2 {
		t.Errorf("attention bytes 128K/8K = %.2f, want ≈ 2.1 (window + context/ratio), not 16", r)
	}
	// The step still grows with the context (C128A entries, the indexer's
	// scan), far less than full attention would.
	s8, s128 := sm.StepUniform(RankLoad{DecodeSeqs: 32, DecodeCtx: 32 * 8192}), sm.StepUniform(RankLoad{DecodeSeqs: 32, DecodeCtx: 32 * 131072})
	if s128.AttentionS <= s8.AttentionS || s128.AttentionS > 16*s8.AttentionS/2 {
		t.Errorf("attention 8K %.3f ms, 128K %.3f ms", s8.AttentionS*1e3, s128.AttentionS*1e3)
	}
}

// TestDeepseekV4PrefillAttention: a prefill query attends to at most the
// window on every layer, the top-k on C4A layers and its causal context/128
// on C128A layers; the model-level FLOPs count unpadded heads.
func TestDeepseekV4PrefillAttention(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	n := 8192.0
	pairs := n * (n + 1) / 2
	want := 4 * 64 * 512 * (43*n*128 + 21*n*512 + 20*pairs/128)
	if got := AttentionPrefillFLOPs(m, n); math.Abs(got/want-1) > 1e-12 {
		t.Errorf("prefill of %v: %.4g FLOPs, hand %.4g", n, got, want)
	}
	if got, want := AttentionDecodeFLOPsPerToken(m, n), 4*64*512*(43*128+21*512+20*64.0); math.Abs(got/want-1) > 1e-12 {
		t.Errorf("decode at %v: %.4g FLOPs, hand %.4g", n, got, want)
	}
}

// TestNemotron3SuperLatentExperts: Nemotron-3 Super's routed experts run at
// moe_latent_size 1,024 (vLLM's NemotronHMoE: FusedMoE of hidden_size
// moe_latent_size between fc1_latent_proj and fc2_latent_proj). One token
// through its 22 experts (up and down, relu², latent 1,024 × intermediate
// 2,688) in 40 MoE layers: 2 × 22 × 2 × 1,024 × 2,688 × 40 FLOPs — at the
// hidden size 4,096 it would be 4× more. The latent projections (2 × 4,096
// × 1,024 per MoE layer) are replicated, whole on every TP rank.
func TestNemotron3SuperLatentExperts(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/ckpt/nvidia--NVIDIA-Nemotron-3-Super-120B-A12B-FP8/config.json")
	if err != nil {
		t.Fatal(err)
	}
	hw := NewHardware(perfGPU(t, "h200"), 8, 0, 2, 0, 0, 0)
	sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 4, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff})
	f, b := sm.expertWork(1)
	// TP-sharded experts (no EP): the GPU does a quarter of each pair.
	hand := 2 * 22 * 2 * 1024.0 * 2688 * 40 / 4
	if math.Abs(f/hand-1) > 1e-12 {
		t.Errorf("expert FLOPs per token on one of 4 GPUs %.6g, hand %.6g", f, hand)
	}
	// Weights: the 22 experts hit, a quarter of each on this GPU, FP8 with
	// block scales; activations at the latent width (3·L + 14·I/4 per pair
	// plus the reduction's read-back, moeActBytesPerPair).
	weights := 22 * 2 * 1024.0 * 2688 / 4 * (1 + 4.0/(128*128)) * 40
	act := 22 * (1024 + 4*1024 + 14*2688.0/4) * 40
	if math.Abs(b/(weights+act)-1) > 1e-9 {
		t.Errorf("expert bytes per token %.6g, hand %.6g", b, weights+act)
	}
	p := m.ParamCounts()
	if want := (p.Attention+p.DenseMLP+p.SharedExperts+p.Router+p.Norms)/4 + 40*2*4096*1024.0; math.Abs(sm.denseParamsGPU/want-1) > 1e-12 {
		t.Errorf("dense params per GPU %.6g, want %.6g (latent projections whole)", sm.denseParamsGPU, want)
	}
	// The all-to-all carries the projected tokens: BF16 dispatch and
	// combine of 1,024 values.
	ep := NewStepModel(StepSetup{Model: m, HW: hw, TP: 1, PP: 1, DP: 8, EP: true, WeightDType: "fp8", KVDType: "fp8", A2A: vllm.TrafficPerExpert, CUDAGraphs: true, Eff: idealEff})
	if want := 2*1024.0 + 2*1024; ep.bytesCopy != want {
		t.Errorf("all-to-all bytes per copy %v, want %v (latent width)", ep.bytesCopy, want)
	}
}

// TestDeepseekV4DenseWeights: the attention's replicated parts are whole
// on every GPU, and the hyper-connection mixers (float32, whole on every
// GPU) are in the dense weights: per layer 2 × ((2 + 4) × 4 × (4 × 4,096) +
// 24 + 3) parameters, 43 layers, and the hc_head (4 × 4 × 4,096 + 4 + 1),
// read at 4 B each — but not in the dense GEMMs' FLOPs, which the mHC term
// prices at TF32 (TestDeepseekV4HyperConnectionsWork).
func TestDeepseekV4DenseWeights(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	hw := NewHardware(perfGPU(t, "h200"), 8, 0, 2, 0, 0, 0)
	sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 4, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "fp8", Eff: idealEff})
	p := m.ParamCounts()
	hc := 43*2*(24*4*4096.0+24+3) + 4*4*4096 + 4 + 1
	// Attention on one of 4 ranks: per layer wq_a and wkv (4,096 × (1,024
	// + 512)), q_norm, kv_norm, the compressors and the C4A indexers whole;
	// wq_b, wo_a, wo_b and the sinks for 16 of the 64 heads.
	var attn float64
	for i := 0; i < 43; i++ {
		attn += 4096*(1024+512) + 1024 + 512
		switch m.DSV4.Ratio(i) {
		case 4:
			attn += 4096*2*2*512 + 4*2*512 + 512                                 // compressor (coff 2)
			attn += 1024*64*128 + 4096*64 + 2*128 + 4096*2*2*128 + 4*2*128 + 128 // indexer with its compressor
		case 128:
			attn += 4096*2*512 + 128*512 + 512
		}
	}
	attn += 43 * (1024*16*512 + 16*512*1024 + 8*1024*4096/4.0 + 16)
	if math.Abs(attn-m.AttentionParams(16, 1)*43) > 1 {
		t.Fatalf("hand attention per rank %.0f, catalog %.0f", attn, m.AttentionParams(16, 1)*43)
	}
	dense := (p.DenseMLP+p.SharedExperts+p.Router+p.Norms)/4 + p.Indexer + attn
	// The hyper-connections' weights are read with the dense weights; their
	// FLOPs are the mHC term's (mhc.go), not the dense GEMMs'.
	if math.Abs(sm.denseParamsGPU-dense) > 1 {
		t.Errorf("dense params per GPU %.0f, want %.0f (without the %.0f hyper-connection parameters)", sm.denseParamsGPU, dense, hc)
	}
	want := dense*(1+4.0/(128*128)) + hc*4 + sm.lmHeadParamsGPU*2
	if math.Abs(sm.denseBytesGPU/want-1) > 1e-12 {
		t.Errorf("dense bytes per GPU %.0f, want %.0f", sm.denseBytesGPU, want)
	}
}

// TestNemotron3SuperHybridDecodeBytes: of Nemotron-3 Super's 88 layers 8
// hold attention ('*'), 40 Mamba-2 mixers ('M'), 40 latent MoE ('E'). A
// decode step reads the KV of the 8 attention layers (2 KV heads over TP 4:
// one per GPU, head_dim 128, FP8: 256 B per token and layer) and reads and
// writes each Mamba layer's state once per sequence: on one of 4 GPUs the
// conv state (4 − 1) × (128 × 64 + 2 × 8 × 128) / 4 BF16 values and the
// temporal state 128/4 × 64 × 128 float32 (mamba_ssm_cache_dtype) — the
// sizes the memory model budgets. Each layer is one mixer, so one TP
// all-reduce.
func TestNemotron3SuperHybridDecodeBytes(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/ckpt/nvidia--NVIDIA-Nemotron-3-Super-120B-A12B-FP8/config.json")
	if err != nil {
		t.Fatal(err)
	}
	hw := NewHardware(perfGPU(t, "h200"), 8, 0, 2, 0, 0, 0)
	sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 4, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff})
	state := 40 * (3*(128*64+2*8*128)/4*2.0 + 32*64*128*4)
	for _, ctx := range []float64{8192, 131072} {
		want := 256*8*(ctx+1) + 2*state
		if got := sm.kvBytes(RankLoad{DecodeSeqs: 1, DecodeCtx: ctx}); math.Abs(got/want-1) > 1e-12 {
			t.Errorf("ctx %v: decode bytes %.6g, hand %.6g", ctx, got, want)
		}
	}
	// One mixer per layer: 88 TP all-reduces per forward pass, not 176.
	if sm.tpReduces != 88 {
		t.Errorf("TP all-reduces per pass %v, want 88", sm.tpReduces)
	}
	if got, want := AttentionDecodeFLOPsPerToken(m, 8192), 4*32*128*8*8192.0; got != want {
		t.Errorf("attention FLOPs per token %.6g, hand %.6g (8 attention layers)", got, want)
	}
}
