package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestEagerCensusDeepseekV4 pins DeepSeek-V4-Flash's decode census by hand
// (eager.go cites the vLLM code). Every layer:
//   - attention 15: attn_norm; fused_wqa_wkv (FP8 quant + GEMM); the fused
//     q/kv RMSNorm; wq_b (quant + GEMM); the fused q norm + RoPE + K RoPE +
//     FP8 quant + SWA cache insert; the pad to FlashMLA's 64 heads;
//     FlashMLA's split-KV sparse decode and its combine;
//     fused_inv_rope_fp8_quant; the wo_a fp8_einsum; wo_b (quant + GEMM)
//     and the TP all-reduce;
//   - MoE 20: ffn_norm and the router GEMM (Flash's 4,096 × 256 is not the
//     fused Pro shape); the sqrt-softplus top-k (hash layers too); the
//     Triton MXFP4 experts' expert-map gather, two casts, bitmatrix fill
//     and pack, the -1 mask (2), routing_from_bitmatrix, two matmul_ogs;
//     the shared expert (quant + gate_up, SiluAndMul with clamp, quant +
//     down); the shared + routed sum; the all-reduce;
//   - mHC 4: two blocks of mhc_fused + big_fuse.
//
// So 39 in the 2 sliding-window-only layers (0, 1); C128A layers add the
// compressor (GEMM, partial-state save, fused compress/norm/RoPE/quant/
// insert: 3), 42 in 20 layers; C4A layers add the compressor, the top-k
// slot translation and the indexer (weights_proj, its compressor's GEMM
// and two kernels, wq_b quant + GEMM, the fused q RoPE/quant, the top-k
// buffer fill, the paged MQA logits, the top-k: 11), 53 in 21 layers:
// 2·39 + 20·42 + 21·53 = 2,031. V4's linears are block FP8 whatever the
// weights string says. V4-Pro's shape fuses ffn_norm with the router GEMM
// at decode: one kernel fewer per layer.
func TestEagerCensusDeepseekV4(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	if sw, c4, c128 := m.DSV4.LayersByRatio(0, m.NumLayers); sw != 2 || c4 != 21 || c128 != 20 {
		t.Fatalf("layers by ratio %d / %d / %d, want 2 / 21 / 20", sw, c4, c128)
	}
	for i, want := range map[int]float64{0: 39, 1: 39, 2: 53, 3: 42, 42: 53} {
		if got := dsv4LayerKernels(m, i); got != want {
			t.Errorf("layer %d (ratio %d): %v kernels, want %v", i, m.DSV4.Ratio(i), got, want)
		}
	}
	if got := eagerLayers(m, "fp8") * eagerOpsRef; math.Abs(got-2031) > 1e-9 {
		t.Errorf("V4-Flash census: %v kernels, want 2,031", got)
	}
	if a, b := eagerLayers(m, "fp8"), eagerLayers(m, "bf16"); a != b {
		t.Errorf("V4's census moved with the weights string: fp8 %v, bf16 %v", a, b)
	}
	pro := *m
	pro.HiddenSize, pro.NumExperts = 7168, 384
	if got := eagerLayers(&pro, "fp8") * eagerOpsRef; math.Abs(got-(2031-43)) > 1e-9 {
		t.Errorf("V4-Pro-shaped census: %v kernels, want 1,988", got)
	}
}

// TestDSV4CriticalPathKernels pins, by hand, the kernels DeepSeek-V4-
// Flash's aux streams take off the critical path (eager.go, vllm/
// facts_dsv4_streams.go). Input-GEMM fork (≤ 1,024 tokens): the main
// stream's fused_wqa_wkv is 2 kernels (quant + GEMM), each aux stream runs
// one GEMM, so every aux kernel hides: 1 in a C128A layer (its
// compressor's), 3 in a C4A layer (compressor, indexer weights_proj,
// indexer compressor). Post-GEMM fork (any size): C128A main wq_b quant +
// GEMM + the fused insert (3) beside the compressor's partial-state save
// and fused compress (2): both hide; C4A main wq_b, insert and compressor
// (3 + 2 = 5) beside the indexer's wq_b quant + GEMM, its compressor's two,
// the fused q RoPE/quant and the top-k fill, logits, top-k (8): the aux
// stream outlasts main by 3, so 5 hide. Per layer on the critical path,
// under the threshold: SWA 39, C128A 42 − 3 = 39, C4A 53 − 8 = 45; above
// it 39, 40, 48. Over Flash's 2 / 20 / 21 layers: 20·1 + 21·3 = 83
// hidden by the GEMM fork, 20·2 + 21·5 = 145 by the post-GEMM one.
func TestDSV4CriticalPathKernels(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	for i, want := range map[int][2]float64{0: {39, 39}, 1: {39, 39}, 2: {45, 48}, 3: {39, 40}, 42: {45, 48}} {
		g, p := dsv4HiddenKernels(m, i)
		all := dsv4LayerKernels(m, i)
		if got := [2]float64{all - g - p, all - p}; got != want {
			t.Errorf("layer %d (ratio %d): critical path %v (≤ threshold, above), want %v", i, m.DSV4.Ratio(i), got, want)
		}
	}
	if g, p := dsv4StageHiddenKernels(m); g != 83 || p != 145 {
		t.Errorf("V4-Flash hidden kernels: GEMM fork %v, post-GEMM fork %v; want 83, 145", g, p)
	}
	if g, p := dsv4StageHiddenKernels(perfModel(t, "deepseek-v3")); g != 0 || p != 0 {
		t.Errorf("a model without V4's streams hides %v + %v kernels", g, p)
	}
	if got := forkHidden(2, 4, 1); got != 3 {
		t.Errorf("forkHidden(2, 4, 1) = %v, want 3 (the critical path runs 4 of 7)", got)
	}
}

// TestDSV4CriticalKernelsStep checks the step model applies the counts:
// the kernel-gap term counts the critical path (all of the GEMM fork's
// hidden kernels at ≤ 1,024 tokens a rank, only the post-GEMM fork's above
// it, none without aux streams), while the eager launch term still counts
// every kernel.
func TestDSV4CriticalKernelsStep(t *testing.T) {
	m := perfModel(t, "deepseek-v4-flash")
	s := StepSetup{Model: m, HW: Hardware{BF16FLOPS: 989e12, FP8FLOPS: 1979e12, HBMBytesPerS: 3.35e12, GPUsPerNode: 8,
		IntraBytesPerS: 450e9}, TP: 8, PP: 1, DP: 1, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: DefaultEfficiency}
	plain := NewStepModel(s)
	s.DSV4Streams = true
	streams := NewStepModel(s)
	small := []RankRun{{Loads: []RankLoad{{DecodeSeqs: 64, DecodeCtx: 64 * 2048}}, N: 1}}
	large := []RankRun{{Loads: []RankLoad{{DecodeSeqs: 2048, DecodeCtx: 2048 * 2048}}, N: 1}}
	for _, c := range []struct {
		name string
		sm   *StepModel
		runs []RankRun
		less float64
	}{
		{"no streams, small", plain, small, 0},
		{"no streams, large", plain, large, 0},
		{"streams, 64 tokens", streams, small, 83 + 145},
		{"streams, 2,048 tokens", streams, large, 145},
	} {
		st := c.sm.StepRuns(c.runs)
		if want := plain.kernels - c.less; math.Abs(st.Kernels-want) > 1e-9 {
			t.Errorf("%s: %v kernels on the critical path, want %v", c.name, st.Kernels, want)
		}
	}
	if plain.eagerLayers != streams.eagerLayers {
		t.Errorf("aux streams changed the launch census: %v → %v", plain.eagerLayers, streams.eagerLayers)
	}
}

// TestEagerCensusDSAIndexer pins the DSA indexer's term on GLM-5-FP8 (78
// MLA layers, the first 3 dense, every layer with its own indexer): the
// plain census is 2 norms + 12 MLA + dense MLP 4 or MoE 11 + shared 3, with
// one FP8 activation quantization per linear (MLA 5, MLP 2 or MoE 2 +
// shared 2); the indexer adds wq_b's GEMM, the BF16 wk_weights_proj GEMM,
// k_norm, the fused q RoPE/quant, K's RoPE, the concat, K's quant + cache
// insert, the top-k buffer fill, the paged MQA logits and the top-k (10)
// and wq_b's quantization (1): dense layers 36, MoE layers 48, 3·36 + 75·48
// = 3,708. With IndexCache (index_topk_freq 2, vLLM's offset 2) only layers
// 0, 1 and the odd ones from 3 keep an indexer (40), the other 38 lose 11
// kernels each.
func TestEagerCensusDSAIndexer(t *testing.T) {
	m := perfModel(t, "glm-5-fp8")
	if got := eagerLayers(m, "fp8") * eagerOpsRef; math.Abs(got-3708) > 1e-9 {
		t.Errorf("GLM-5-FP8 census: %v kernels, want 3,708", got)
	}
	shared := *m
	shared.IndexCache = &catalog.IndexCache{Freq: 2, Offset: 2}
	if n := shared.IndexerLayers(0, shared.NumLayers); n != 40 {
		t.Fatalf("IndexCache freq 2: %d indexer layers, want 40", n)
	}
	if got := eagerLayers(&shared, "fp8") * eagerOpsRef; math.Abs(got-(3708-38*11)) > 1e-9 {
		t.Errorf("GLM-5-FP8 with IndexCache: %v kernels, want %v", got, 3708-38*11)
	}
	plain := *m
	plain.IndexTopK = 0
	if d := (eagerLayers(m, "bf16") - eagerLayers(&plain, "bf16")) * eagerOpsRef; math.Abs(d-78*10) > 1e-9 {
		t.Errorf("BF16 indexers add %v kernels, want 780 (no quantization)", d)
	}
}
