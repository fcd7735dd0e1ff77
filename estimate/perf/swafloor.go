package perf

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// A sliding-window layer's decode attention past its window, as
// FlashAttention 3 runs it on Hopper (gpt-oss: head dim 64, window 128).
//
// The step model prices a windowed layer like any attention layer — the
// measured decode-attention floor and per-sequence cost (KernelFigures.
// AttnDecodeS, AttnPerSeqS) plus the KV it reads, here at most the window —
// so a windowed call costs what a call on a 128-token context does. The
// measured FA3 calls do not: once the context is longer than the window
// the same call takes a fixed ≈ 5 µs more, whatever the context (a 255- and
// a 131,071-token context cost the same), and more at large batches.
// aiconfigurator's H100 table (ai-dynamo/aiconfigurator 095f58a51c4c,
// systems/data/h100_sxm/attention/vllm/0.24.0/generation_attention_perf.
// parquet, kernel_source vllm_flash_attn_fa3, head_dim 64, window_size 128,
// BF16 KV; medians over its 64 head layouts at each batch): 15.34 µs at
// batch 1 and 15.54 at batch 4 past the window (steps 255…131,071) against
// 10.35 and 10.50 within it (steps ≤ 127); the difference is 4.7–5.6 µs for
// batches 1–64 (median 5.04), 5.9 at 128, 10.4 at 256, 20.1 at 512, 44.7 at
// 1,024 and 69.9 at 2,048. Full attention at the same shapes costs 12.4–
// 13.1 µs at contexts of 255–2,047 (batches 1–8): past the window a windowed
// call is the dearer one up to ≈ 32 sequences.
//
// The term adds, per windowed layer, ΔW(b) = max(Fixed, Base + PerSeq × b)
// to each decode step whose sequences' mean context exceeds the window
// (b: the step's decode sequences on the rank): Fixed is the median
// difference at batches 1–64, Base and PerSeq the least-squares line of the
// differences over batches 1–2,048. Derived with tools/aicdata csv from the
// parquet files above; the numbers per GPU and KV dtype are in
// windowedFloors.
//
// It applies where all of these hold, and nowhere else: a vLLM engine whose
// release runs FlashAttention 3 for sink models on Hopper (vllm.Release.
// SinkAttentionFA3Hopper, not Absent), a GPU the tables measured
// (windowedFloors), and a model whose windowed layers have the measured
// shape (head dim 64, window 128: gpt-oss). Other windowed shapes (the same
// tables time head dim 128 at window 8,192 and head dims 192 and 256) are
// not read.
type WindowedAttnFloor struct {
	// FixedS is the median extra time of a windowed call past its window
	// at batches 1–64; BaseS and PerSeqS the extra time's least-squares
	// line over batches 1–2,048 (seconds, seconds per sequence).
	FixedS, BaseS, PerSeqS float64
}

// extra is ΔW at b decode sequences.
func (f WindowedAttnFloor) extra(b float64) float64 {
	return max(f.FixedS, f.BaseS+f.PerSeqS*b)
}

// windowedShape is the windowed-layer shape the tables timed.
const (
	windowedHeadDim = 64
	windowedWindow  = 128
)

// WindowedAttnFloors are one GPU's figures by KV element type: BF16 (also
// used for FP16 KV) and FP8.
type WindowedAttnFloors struct {
	BF16, FP8 WindowedAttnFloor
}

// windowedFloors are the measured figures per aiconfigurator system.
var windowedFloors = map[string]*WindowedAttnFloors{
	"h100_sxm": {
		BF16: WindowedAttnFloor{FixedS: 5.04e-6, BaseS: 4.178e-6, PerSeqS: 0.03327e-6},
		FP8:  WindowedAttnFloor{FixedS: 4.79e-6, BaseS: 3.938e-6, PerSeqS: 0.02764e-6},
	},
	"h200_sxm": {
		BF16: WindowedAttnFloor{FixedS: 5.18e-6, BaseS: 4.188e-6, PerSeqS: 0.03497e-6},
		FP8:  WindowedAttnFloor{FixedS: 4.93e-6, BaseS: 3.829e-6, PerSeqS: 0.02871e-6},
	},
}

// windowedFloorsFor is the GPU's windowed-attention figures when release
// rel runs FlashAttention 3 for sink models on it (Hopper), nil otherwise.
func windowedFloorsFor(system string, g *catalog.GPU, rel vllm.Release, isVLLM bool) *WindowedAttnFloors {
	if !isVLLM || g == nil || g.ComputeMajor != 9 {
		return nil
	}
	if p, _ := rel.SinkAttentionFA3Hopper(); p == vllm.Absent {
		return nil
	}
	return windowedFloors[system]
}

// newWindowedFloor is the figure the step model adds for s's windowed
// layers, nil where it does not apply (see WindowedAttnFloor).
func newWindowedFloor(m *catalog.Model, s *StepSetup) *WindowedAttnFloor {
	w := s.Eff.Kernels.Windowed
	if w == nil || m.HeadDim != windowedHeadDim || m.BoundedWindow() != windowedWindow || m.DSV4 != nil {
		return nil
	}
	f := w.BF16
	if s.KVDType == "fp8" {
		f = w.FP8
	}
	return &f
}

// windowedExtra is the decode step's windowed-attention time beyond what
// attnFixed and the KV bytes price (zero where no figure applies, without
// decode sequences, or while their mean context fits in the window).
func (sm *StepModel) windowedExtra(l RankLoad) float64 {
	if sm.swa == nil || sm.slidingLayers <= 0 || l.DecodeSeqs <= 0 || l.DecodeCtx/l.DecodeSeqs <= sm.window {
		return 0
	}
	return sm.slidingLayers * sm.swa.extra(l.DecodeSeqs)
}
