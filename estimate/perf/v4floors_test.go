package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestFlashMLABlockTime: one 64-key block's time on one SM, from the deep
// dive's 460 TFLOPS (H800, batch 128, 128 heads, s_q 2, topk 32,768) and
// the scheduler's payload, by hand: parts = 132 / 2 / (128 / 64) = 33;
// payload = ⌈128 · (32,768 / 64 + 5) / 33⌉ + 5 = ⌈2,005.33⌉ + 5 = 2,011;
// FLOPs = 128 · 2 · 128 · 32,768 · 2 · (576 + 512) = 2.33646e12, 5.07927 ms
// at 460 TFLOPS; / 2,011 = 2.52574 µs. The same model at the deep dive's
// other point (topk 2,048: payload ⌈128 · 37 / 33⌉ + 5 = 149, 376.34 µs
// for 1.46029e11 FLOPs) gives 388 TFLOPS against the 410 published: within
// 6%, on the slow side.
func TestFlashMLABlockTime(t *testing.T) {
	if got := flashMLABlockS(); math.Abs(got-2.52574e-6) > 1e-11 {
		t.Fatalf("block time %.5g s, hand 2.52574e-6", got)
	}
	p := flashMLAPayload(128, 2048/64, 33)
	if p != 149 {
		t.Fatalf("topk 2048 payload %v, hand 149", p)
	}
	tflops := 128 * 2 * 128 * 2048 * 2176.0 / (p * flashMLABlockS()) / 1e12
	if tflops < 410*0.94 || tflops > 410 {
		t.Errorf("topk 2048: %.0f TFLOPS, published 410", tflops)
	}
}

// TestFlashMLAQueryBlocks: a V4 query's blocks, by hand, at the window of
// 128: a sliding-window-only layer 128 / 64 = 2; at a 1,152-token context a
// C4A layer 128 + min(512, 288) = 416 keys, 7 blocks, a C128A layer 128 +
// 9 = 137, 3 blocks; at 65,664 both read 128 + 512 = 640, 10 blocks. A
// context shorter than the window rounds the window up to whole blocks
// before the extra keys (⌈t⌉₆₄): 100 + 25 → 64·2 + 25 = 153, 3 blocks;
// an empty window still schedules one block.
func TestFlashMLAQueryBlocks(t *testing.T) {
	for _, tt := range []struct{ win, extra, want float64 }{
		{128, 0, 2}, {128, 288, 7}, {128, 9, 3}, {128, 512, 10}, {100, 25, 3}, {0, 0, 1},
	} {
		if got := queryBlocks(tt.win, tt.extra); got != tt.want {
			t.Errorf("window %v extra %v: %v blocks, hand %v", tt.win, tt.extra, got, tt.want)
		}
	}
}

// TestFlashMLACall: one call on an H100 (132 SMs), by hand. 64 padded
// heads, one query token: 132 parts; one sequence of 7 blocks, payload
// ⌈12 / 132⌉ + 5 = 6 block-times, 15.156 µs; eight such sequences still 6
// (⌈96 / 132⌉ = 1): flat in batch and context, as long as the work fits
// one block a part. 64 sequences of 10 blocks: ⌈960 / 132⌉ + 5 = 13,
// 32.84 µs. One draft token (s_q 2) halves the parts: 8 × 12 over 66, ⌈1.45⌉
// + 5 = 7. 128 heads (two CTAs a query) halve them too.
func TestFlashMLACall(t *testing.T) {
	f := &SparseMLADecode{SMs: 132, BlockS: flashMLABlockS()}
	b := flashMLABlockS()
	for _, tt := range []struct{ seqs, blocks, sq, heads, want float64 }{
		{1, 7, 1, 64, 6}, {8, 7, 1, 64, 6}, {64, 10, 1, 64, 13}, {8, 7, 2, 64, 7}, {8, 7, 1, 128, 7},
	} {
		if got := f.call(tt.seqs, tt.blocks, tt.sq, tt.heads) / b; math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%v seqs × %v blocks, s_q %v, %v heads: %.3f block-times, hand %v", tt.seqs, tt.blocks, tt.sq, tt.heads, got, tt.want)
		}
	}
}

// TestSparseMLAFigureGPUs: the figure applies on Hopper SMs at the H800's
// per-SM BF16 rate (989 / 132 TFLOPS: H100 SXM, H200) under vLLM, and
// nowhere else: not the H20 (148 / 78) or the H100 PCIe (756.5 / 114),
// whose SMs the benchmark did not time, not Blackwell (another kernel),
// not another engine.
func TestSparseMLAFigureGPUs(t *testing.T) {
	for _, tt := range []struct {
		gpu    string
		isVLLM bool
		want   bool
	}{
		{"h100-sxm", true, true}, {"h200", true, true}, {"h100-sxm", false, false},
		{"h20-96g", true, false}, {"h100-pcie", true, false}, {"b200", true, false},
	} {
		got := sparseMLADecodeFor(perfGPU(t, tt.gpu), tt.isVLLM)
		if (got != nil) != tt.want {
			t.Errorf("%s (vLLM %v): figure %v, want %v", tt.gpu, tt.isVLLM, got != nil, tt.want)
		}
		if got != nil && got.SMs != 132 {
			t.Errorf("%s: %v SMs", tt.gpu, got.SMs)
		}
	}
}

// TestV4AttnFloorStep: DeepSeek-V4-Flash on 8 × H100 (TP8: 8 heads a rank,
// padded to 64) decoding one sequence at 1,152 tokens. Its 43 layers (2
// SWA-only, 21 C4A, 20 C128A as the catalog's compress_ratios give them)
// are each one 6-block call (every query fits one block a part), so the
// calls take 43 · 6 · 2.52574 = 651.64 µs; less one kernel gap a call
// (2.45 µs, the H100's measured gap: 105.35 µs) that is 546.29 µs, which
// replaces the measured dense floor's 43 · (9.91 − 2.45 + 0.129) = 326.3
// µs. The step's attention term moves by the difference less the decode
// roofline the floor stands in for (a few µs); with the switch off it is
// the dense floor again.
func TestV4AttnFloorStep(t *testing.T) {
	defer func(v bool) { UseV4KernelFloors = v }(UseV4KernelFloors)
	m := perfModel(t, "deepseek-v4-flash")
	g := perfGPU(t, "h100-sxm")
	eff := ForRelease(DefaultEfficiency, g, vllm.Release{}, true, nil)
	if eff.Kernels.SparseMLA == nil || eff.KernelGapS != 2.45e-6 || eff.Kernels.AttnDecodeS != 9.91e-6 {
		t.Fatalf("H100 figures: sparse MLA %v, gap %v, dense floor %v", eff.Kernels.SparseMLA, eff.KernelGapS, eff.Kernels.AttnDecodeS)
	}
	hw := NewHardware(g, 8, 0, 2, 0, 0, 0)
	sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 8, PP: 1, DP: 1, EP: true, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: eff})
	swa, c4, c128 := m.DSV4.LayersByRatio(0, m.NumLayers)
	if swa != 2 || c4 != 21 || c128 != 20 {
		t.Fatalf("layers %d + %d + %d", swa, c4, c128)
	}
	l := RankLoad{DecodeSeqs: 1, DecodeCtx: 1152}
	calls := sm.sparseMLADecodeTime(l)
	if math.Abs(calls-43*6*2.52574e-6) > 2e-9 {
		t.Fatalf("calls %.2f µs, hand %.2f", calls*1e6, 43*6*2.52574)
	}
	UseV4KernelFloors = true
	on := sm.rankTime(l, nil)
	extra, ok := sm.v4AttnFloor(l, 0)
	if !ok || math.Abs(extra-(651.64e-6-43*2.45e-6)) > 1e-8 {
		t.Fatalf("floor beyond the gaps %.2f µs, hand 546.29 (ok %v)", extra*1e6, ok)
	}
	UseV4KernelFloors = false
	off := sm.rankTime(l, nil)
	dense := sm.attnFixed(l)
	if math.Abs(dense-43*(9.91-2.45+0.129)*1e-6) > 1e-9 {
		t.Fatalf("dense floor %.2f µs, hand 326.33", dense*1e6)
	}
	d := on - off
	if d > extra-dense || d < extra-dense-10e-6 {
		t.Errorf("step moves %.2f µs, hand %.2f less a decode roofline of a few µs", d*1e6, (extra-dense)*1e6)
	}
}
