package perf

import (
	"math"

	"github.com/vlaunch/vlaunch/catalog"
)

// UseV4KernelFloors prices DeepSeek-V4's decode attention as FlashMLA's
// sparse decoding kernel schedules it on Hopper — a per-call floor set by
// the kernel's own split-KV scheduler — in place of the measured dense
// decode-attention floor (KernelFigures.AttnDecodeS) the step model gives
// every other attention layer (issue #28; see v4floors_test.go and the
// trial in perf_input.go).
//
// What vLLM runs: every DeepSeek-V4 layer's decode is one flash_mla_with_
// kvcache call (deepseek_v4_attention.py, dsv4.go) — FlashMLA's sparse FP8
// decode (deepseek-ai/FlashMLA csrc/api/sparse_decode.h at 4c3d231f,
// sparse_attn_decode_interface; on sm90a Decode_Sm90_Impl) — then its
// split-KV combine (both in the kernel census, eager.go). The kernel's
// duration, by its scheduler (csrc/smxx/decode/get_decoding_sched_meta/
// get_decoding_sched_meta.cu at 082094b7, get_mla_metadata_kernel, with
// Decode_Sm90_Impl::get_meta's constants):
//
//   - each query's keys are cut into blocks of 64 (block_size_topk): a
//     query with topk_length t and extra_topk_length x has
//     ⌈(⌈t⌉₆₄ + x) / 64⌉ blocks (the sliding window is the topk, the
//     compressed entries the extra);
//   - the work is split over num_sm_parts = SMs / s_q / (h_q / 64) parts
//     (h_q: the rank's query heads, padded to 64 or 128; s_q: query tokens
//     per sequence, 1 + drafts), each sequence costing its blocks plus
//     fixed_overhead_num_blocks = 5 (the scheduler's own price of a split's
//     prologue and epilogue, in blocks);
//   - every part is given at most payload = ⌈Σ (blocks + 5) / parts⌉ + 5
//     block-times, so the kernel takes payload × one block's time on one
//     SM: at batch 1 (and up to parts / (blocks + 5) sequences) 1 + 5 = 6
//     block-times whatever the context — flat with batch and context, as
//     the held-out trace shows (16.7 µs a call at batch 1 and 8, 1K and
//     64K).
//
// One block's time on one SM (blockS) is read from the kernel's published
// throughput, not fitted: FlashMLA's deep dive (docs/20250929-hopper-fp8-
// sparse-deep-dive.md at e9b67321, "Performance") gives 460 TFLOPS on
// H800 SXM5 at batch 128, 128 heads, s_q 2, topk 32,768 (410 at topk
// 2,048). That configuration's scheduler payload is ⌈128 · (512 + 5) /
// 33⌉ + 5 = 2,011 blocks for 128 · 2 · 128 · 32,768 · 2 · (576 + 512)
// FLOPs, so a block takes 5.080 ms / 2,011 = 2.526 µs (the same model puts
// the topk-2,048 point at 149 blocks, 376 µs, 388 TFLOPS against the 410
// published: the scheduler's 5-block overhead is, if anything, slightly
// dear). The benchmark ran V3.2's shape — 128 heads, two CTAs sharing the
// dequantized keys ("crossover"), 656-byte FP8 entries — where V4 runs 64
// padded heads on one CTA and its 584-byte MODEL1 entries (448 FP8
// values): the block time is carried over as published, an assumption
// the held-out trace does not contradict (15.2 µs modelled, 16.7 traced).
// The figure applies where the SM is the benchmark's: Hopper (the
// sm90 kernel) with the H800's per-SM BF16 rate (989 / 132 TFLOPS: H800,
// H100 SXM, H200); other GPUs keep the measured dense floor.
//
// The combine kernel and FlashMLA's metadata kernel (get_mla_metadata, a
// few calls a step) are not priced beyond the kernel gap: no source
// independent of the held-out trace times them.
var UseV4KernelFloors = true

// SparseMLADecode is FlashMLA's sparse FP8 decode on one GPU: its SMs and
// one 64-key block's time for 64 heads on one SM.
type SparseMLADecode struct {
	SMs    float64
	BlockS float64
}

// FlashMLA's scheduler constants (Decode_Sm90_Impl::get_meta) and the
// deep dive's benchmark (see UseV4KernelFloors).
const (
	flashMLABlock         = 64 // block_size_topk
	flashMLAFixedBlocks   = 5  // fixed_overhead_num_blocks
	flashMLABenchTFLOPS   = 460
	flashMLABenchBatch    = 128
	flashMLABenchHeads    = 128
	flashMLABenchSQ       = 2
	flashMLABenchTopK     = 32768
	flashMLABenchHeadFLOP = 2 * (576 + 512) // per (query, head, key): QK over 576, PV over 512
	h800SMs               = 132
	h800BF16TFLOPS        = 989
)

// flashMLAPayload is the scheduler's largest part, in block-times, for b
// sequences of blocks blocks each over parts parts.
func flashMLAPayload(b, blocks, parts float64) float64 {
	if b <= 0 {
		return 0
	}
	return math.Ceil(b*(blocks+flashMLAFixedBlocks)/parts) + flashMLAFixedBlocks
}

// flashMLABlockS is one block's time on one SM of the benchmark's GPU.
func flashMLABlockS() float64 {
	parts := float64(h800SMs / flashMLABenchSQ / (flashMLABenchHeads / 64))
	payload := flashMLAPayload(flashMLABenchBatch, flashMLABenchTopK/flashMLABlock, parts)
	flops := float64(flashMLABenchBatch) * flashMLABenchSQ * flashMLABenchHeads * flashMLABenchTopK * flashMLABenchHeadFLOP
	return flops / (flashMLABenchTFLOPS * 1e12) / payload
}

// sparseMLADecodeFor is g's FlashMLA sparse decode figure where vLLM runs
// the sm90 kernel on the benchmark's SM (nil otherwise).
func sparseMLADecodeFor(g *catalog.GPU, isVLLM bool) *SparseMLADecode {
	if !isVLLM || g == nil || g.ComputeMajor != 9 || g.SMs <= 0 {
		return nil
	}
	perSM, ref := g.BF16TFLOPS/float64(g.SMs), float64(h800BF16TFLOPS)/h800SMs
	if math.Abs(perSM/ref-1) > 0.01 {
		return nil
	}
	return &SparseMLADecode{SMs: float64(g.SMs), BlockS: flashMLABlockS()}
}

// queryBlocks is one decode query's FlashMLA blocks on a layer that
// attends to win window entries and extra compressed ones.
func queryBlocks(win, extra float64) float64 {
	t := max(1, math.Floor(win))
	if extra <= 0 {
		return math.Ceil(t / flashMLABlock)
	}
	return math.Ceil((math.Ceil(t/flashMLABlock)*flashMLABlock + math.Floor(extra)) / flashMLABlock)
}

// call is one FlashMLA sparse decode call's time: seqs sequences of
// blocks blocks, sq query tokens each, heads padded heads on the rank.
func (f *SparseMLADecode) call(seqs, blocks, sq, heads float64) float64 {
	parts := max(1, math.Floor(f.SMs/sq/max(1, heads/64)))
	return flashMLAPayload(seqs, blocks, parts) * f.BlockS
}

// sparseMLADecodeTime is the stage's FlashMLA decode calls for l's decode
// sequences at their mean context (one call per layer): its SWA-only,
// C4A and C128A layers at their blocks.
func (sm *StepModel) sparseMLADecodeTime(l RankLoad) float64 {
	a, f := sm.dsv4, sm.S.Eff.Kernels.SparseMLA
	if a == nil || f == nil || l.DecodeSeqs <= 0 {
		return 0
	}
	ctx := l.DecodeCtx / l.DecodeSeqs
	win := min(ctx, a.window)
	sq := float64(1 + sm.S.SpecTokens)
	heads := dsv4HeadsPerRank(sm.S.Model, sm.S.TP)
	swaOnly := a.layers - a.c4 - a.c128
	return swaOnly*f.call(l.DecodeSeqs, queryBlocks(win, 0), sq, heads) +
		a.c4*f.call(l.DecodeSeqs, queryBlocks(win, min(a.topK, ctx/4)), sq, heads) +
		a.c128*f.call(l.DecodeSeqs, queryBlocks(win, ctx/128), sq, heads)
}

// v4AttnFloor is what the FlashMLA calls add to the decode attention's
// roofline (decodeRoof): their time beyond one kernel gap a call (the
// census counts the gap) and beyond the roofline's own decode share, so
// the decode attention costs the larger of the two. ok is false where the
// figure does not apply (the measured dense floor, attnFixed, then holds).
func (sm *StepModel) v4AttnFloor(l RankLoad, decodeRoof float64) (extra float64, ok bool) {
	if !UseV4KernelFloors || sm.dsv4 == nil || sm.S.Eff.Kernels.SparseMLA == nil {
		return 0, false
	}
	if l.DecodeSeqs <= 0 {
		return 0, true
	}
	calls := sm.sparseMLADecodeTime(l) - sm.dsv4.layers*sm.S.Eff.KernelGapS
	return max(0, calls-decodeRoof), true
}
