package perf

import "github.com/vlaunch/vlaunch/catalog"

// DeepSeek-V4's manifold-constrained hyper-connections (mHC) as vLLM runs
// them on CUDA (read at vllm-project/vllm f1b76c19 vllm/model_executor/
// models/deepseek_v4.py, DeepseekV4DecoderLayer._forward_cuda and
// DeepseekV4Model.forward; vllm/model_executor/layers/mhc.py at 001a058b;
// vllm/model_executor/kernels/mhc/tilelang.py at 2d833353 and 03bcd70c —
// the newest versions the index holds; which vLLM release each is in was
// not read, so the release stays unknown):
//
//   - the residual is hc_mult streams of hidden_size BF16 values per token
//     (the embedding is repeated hc_mult times before the first layer and
//     hc_head collapses the streams after the last), whole on every TP rank;
//   - every layer runs two mHC blocks, one before attention (hc_attn_*) and
//     one before the FFN (hc_ffn_*). Each block is a post — the previous
//     sublayer's output x mixed back into the streams, out_j = post_j·x +
//     Σ_i comb_ij·residual_i — then a pre: a float32 GEMM of the new streams
//     (hc_mult × hidden_size wide) against fn's (2 + hc_mult) × hc_mult mix
//     rows with their squared sum (tf32_hc_prenorm_gemm, DeepGEMM), then
//     mhc_pre_big_fuse: sigmoid/softmax of the mixes, hc_sinkhorn_iters
//     Sinkhorn normalisations of the hc_mult × hc_mult comb matrix, and the
//     layer input Σ_i pre_i·residual_i (BF16, hidden_size). The first
//     layer's first block has no post; a standalone post ends the stage:
//     2 posts and 2 pres per layer in all (mhc_fused_post_pre);
//   - above 16 tokens a block is three kernels — mhc_post (reads the
//     streams and x, writes the new streams), the GEMM (reads them again),
//     big_fuse (reads them a third time, writes the layer input); at 16
//     tokens or fewer (fma_token_threshold / use_small_fma) mhc_fused does
//     the post and the mixing GEMM (FMA) in one pass, then big_fuse: two
//     kernels and one pass over the streams fewer;
//   - outside the layers: the embedding's repeat into hc_mult streams, the
//     copy of the streams into the MTP draft's buffer (_mtp_hidden_buffer,
//     every step), and hc_head_fused_kernel (reads the streams, writes one
//     BF16 hidden state).
//
// Independent timings found 2026-12-07 (session 35, research only; none
// priced yet — the next step for the async overlap, perf.UseAsyncOverlap,
// which waits on these terms): a post → pre boundary of vLLM's fused mHC
// at one token 20.2 µs, flat to 16 tokens (mirage-project/mirage PR #677:
// SM100 task types, so Blackwell); vLLM 0.27.1's fused kernel on an H20 at
// 64–128 tokens 11.1–13.5 µs (flagos-ai/FlagGems-vllm PR #708; no rows at
// 16 tokens or fewer); mhc_pre_big_fuse runs one 96-thread block a token,
// its Sinkhorn serial on one warp (tile-ai/tilelang examples/deepseek_mhc/
// example_mhc_pre.py), and the unsplit pre-norm GEMM uses 1–2 blocks up
// to ≈40 tokens (sgl-project/sglang PR #38475: 84–104 µs vs 12 µs
// split-K, non-Hopper). With ≈86 boundaries a token that is ≈1.7 ms a step
// where this model's bytes give 0.43 — a per-call floor of ≈20 µs, not a
// bandwidth term, is what the evidence says; its Hopper figure at ≤ 16
// tokens is still unmeasured. (The MoE: vLLM's Marlin MXFP4 at M = 1
// ≈31 µs a layer, flagos-ai/FlagGems PR #4908, GPU not named; FlashMLA's
// sparse decode ≈22 µs a layer at batch 1, flashinfer-ai/flashinfer PR
// #5119, GPU not named.)
//
// The float32 fn weights are read once per step with the other dense
// weights (StepModel.denseBytesGPU); the mHC term is the streams' traffic
// and the mixing GEMM's FLOPs.

// mhcSmallTokens is vLLM's fma_token_threshold: at or below it a block
// fuses its post with the mixing GEMM (mhc_fused_tilelang).
const mhcSmallTokens = 16

// mhcStageKernels is the mHC kernels a stage runs beyond its layers' pairs
// of blocks: the standalone post that ends it, the embedding's repeat, the
// MTP buffer copy and hc_head (counted on every stage, as
// kernelsOutsideLayers is; the first layer's standalone pre is two kernels,
// as a fused block is).
const mhcStageKernels = 4

// tf32PerBF16 is the TF32 tensor-core peak over the dense BF16 peak: half
// on every GPU generation vLLM's DeepGEMM TF32 kernel runs on (H100 SXM:
// TF32 989 and BF16 1,979 TFLOPS with sparsity, halved without — NVIDIA's
// datasheet as archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html
// quotes it; H20 measured at 71.8 against 142.3, /work/shared/reference/
// gpus.md S7).
const tf32PerBF16 = 0.5

// mhcShape is one stage's hyper-connection work.
type mhcShape struct {
	blocks float64 // mHC blocks (post + pre) per stage: 2 per layer
	hc, h  float64 // hc_mult and hidden_size
	mix    float64 // (2 + hc_mult) × hc_mult mixes per block
}

func newMHCShape(m *catalog.Model, pp float64) *mhcShape {
	if m.DSV4 == nil || m.DSV4.HCMult <= 0 {
		return nil
	}
	hc := float64(m.DSV4.HCMult)
	return &mhcShape{blocks: 2 * float64(m.NumLayers) / pp, hc: hc, h: float64(m.HiddenSize), mix: (2 + hc) * hc}
}

// blockBytes is one block's HBM traffic per token with tokens tokens in the
// step. Above mhcSmallTokens: the post reads the streams and x and writes
// the new streams, the GEMM reads them, big_fuse reads them and writes the
// layer input, (4·hc + 2)·H BF16 values; at or below it the fused post+GEMM
// saves one read of the streams, (3·hc + 2)·H. The float32 side: the post
// reads post_mix and comb (hc + hc²), the GEMM writes its mixes and squared
// sum (mix + 1) that big_fuse reads, and big_fuse writes post_mix and comb.
func (c *mhcShape) blockBytes(tokens float64) float64 {
	passes := 4*c.hc + 2
	if tokens <= mhcSmallTokens {
		passes = 3*c.hc + 2
	}
	return 2*passes*c.h + 4*(2*(c.hc+c.hc*c.hc)+2*(c.mix+1))
}

// stageBytes is the traffic per token outside the layers: the repeat
// (reads H, writes hc·H), the MTP copy (reads and writes hc·H) and hc_head
// (reads hc·H, writes H), BF16.
func (c *mhcShape) stageBytes() float64 { return 2 * (4*c.hc + 2) * c.h }

// work is the stage's mHC FLOPs on tensor cores (the mixing GEMMs, 2 × mix
// × hc·H per token per block) and HBM bytes for a step of tokens tokens.
// The element-wise float32 work (the post's mix, the squared sums, the
// pre's weighted sum: ≈ 2·hc·(hc + 3)·H FLOPs per block, with Sinkhorn's
// few hc² operations) is not counted as compute: at ≈ 2 FLOPs per byte it
// stays far below any GPU's FP32 ridge (H100: 67 TFLOPS over 3.35 TB/s, 20)
// and hides under the bytes.
func (c *mhcShape) work(tokens float64) (flops, bytes float64) {
	if c == nil || tokens <= 0 {
		return 0, 0
	}
	flops = tokens * c.blocks * 2 * c.mix * c.hc * c.h
	bytes = tokens * (c.blocks*c.blockBytes(tokens) + c.stageBytes())
	return flops, bytes
}

// streams is the residual streams a token carries between pipeline stages:
// vLLM's DeepSeek-V4 hands on its hc_mult streams (DeepseekV4Model.
// make_empty_intermediate_tensors: (batch, hc_mult, hidden_size), BF16),
// every other model one hidden state.
func (c *mhcShape) streams() float64 {
	if c == nil {
		return 1
	}
	return c.hc
}

// mhcKernelsPerLayer is the mHC kernels one decoder layer runs at CUDA-graph
// batch sizes (≤ mhcSmallTokens tokens, where the kernel gap matters): two
// blocks of mhc_fused + big_fuse. Zero for models without hyper-connections.
func mhcKernelsPerLayer(m *catalog.Model) float64 {
	if m.DSV4 == nil || m.DSV4.HCMult <= 0 {
		return 0
	}
	return 4
}

// mhcTime is the stage's mHC time for a rank pushing tok tokens, the
// roofline of its mixing GEMMs at the TF32 peak and its streams' bytes;
// zero for models without hyper-connections.
func (sm *StepModel) mhcTime(tok float64, st *StepTime) float64 {
	flops, bytes := sm.mhc.work(tok)
	if flops == 0 && bytes == 0 {
		return 0
	}
	s := &sm.S
	t := roof(st, flops/(s.HW.BF16FLOPS*tf32PerBF16*s.Eff.GEMM), bytes/(s.HW.HBMBytesPerS*s.Eff.HBM))
	if UseMHCCallFloor && tok <= mhcFloorTokens {
		t = max(t, sm.mhcFloor())
	}
	return t
}

// UseMHCCallFloor prices each of a layer's two mHC post → pre boundaries at
// no less than mhcBoundaryS at CUDA-graph batch sizes, less the two kernel
// gaps the census already charges them: latency-bound kernels (one
// 96-thread block a token for big_fuse, a serial Sinkhorn; the evidence in
// the comment above) whose time the streams' bytes do not give.
//
// Off. Trial 2026-12-07 (no refit): alone, holdout split 142 → 140 of 295
// (DeepSeek-V4-Flash 11 → 9 of 12: with the host still charged in full the
// rows turn too slow); with perf.UseAsyncOverlap on as well, the dense
// anchors 6 of 6 that count, V4-Flash 9 of 12, split 139 (the MI300X
// gpt-oss rows 7 → 2: their MXFP4 experts' GPU time is uncited),
// calibration 174 → 171, moe-ep TPOT median 14% → 16%, the
// aiconfigurator guard fails. The floor's figure is Blackwell's (mirage PR
// #677); no Hopper timing at ≤ 16 tokens was found.
var UseMHCCallFloor = false

// mhcBoundaryS is one post → pre boundary of vLLM's fused mHC at one token
// (mirage-project/mirage PR #677: 20.2 µs, flat to 16 tokens), and
// mhcFloorTokens the largest batch it was timed at.
const (
	mhcBoundaryS   = 20.2e-6
	mhcFloorTokens = 16
)

// mhcFloor is the stage's mHC floor: two boundaries a layer at
// mhcBoundaryS, less the two kernel gaps a boundary's kernels already pay
// in the step's census.
func (sm *StepModel) mhcFloor() float64 {
	s := &sm.S
	layers := float64(s.Model.NumLayers) / float64(max(1, s.PP))
	return 2 * layers * max(0, mhcBoundaryS-2*s.Eff.KernelGapS)
}
