package main

import (
	"math"
	"testing"
)

// The collector's balanced routing (helper.py balanced_logits) spreads
// T·k pairs over distinct experts while T·k ≤ E: DeepSeek's 256 experts,
// top 8, stride 32. 16 tokens hit experts 2i + 32j (128 of them), 32
// tokens all 256; the rank timed holds experts [0, E/EP).
func TestLocalHits(t *testing.T) {
	for _, c := range []struct{ T, ep, want int }{
		{16, 4, 32}, {32, 4, 64}, {16, 8, 16}, {32, 8, 32}, {16, 1, 128}, {32, 1, 256}, {64, 4, 64},
		{1, 1, 8}, {1, 8, 1},
	} {
		if got := localHits(c.T, 256, 8, c.ep); got != c.want {
			t.Errorf("T=%d EP%d: %d local experts hit, want %d", c.T, c.ep, got, c.want)
		}
	}
	// Nemotron's 512 experts, top 22: stride ceil(512/22) = 24, so 16
	// tokens (< stride) land at ⌊i·1.5⌋ + 24j mod 512: 347 distinct, not
	// 16 × 22 = 352 (the wrap at 22·24 = 528 > 512 collides five).
	if got := localHits(16, 512, 22, 1); got != 347 {
		t.Errorf("Nemotron T=16: %d experts hit, want 347", got)
	}
}

// The hand figure perf carried before this tool (estimate/perf/
// moestream.go, 7.16e12 B/s): b300_sxm SGLang 0.5.14 nvfp4,
// sglang_flashinfer_trtllm_moe, DeepSeek-R1's shape at moe_tp 1 — EP4
// 0.1400 → 0.2499 ms and EP8 0.08375 → 0.13955 ms from 16 to 32 tokens;
// an expert is 3 × 7,168 × 2,048 weights at 4.5 bits = 24,772,608 B.
func TestStreamPointHandFigure(t *testing.T) {
	rows := func(lo, hi float64) []streamRow {
		return []streamRow{{8, lo * 0.6e-3}, {16, lo * 1e-3}, {32, hi * 1e-3}, {64, hi * 1.2e-3}}
	}
	k := streamKey{dtype: "nvfp4", H: 7168, I: 2048, k: 8, E: 256, tp: 1}
	k.ep = 4
	p4, ok4 := streamPoint(k, rows(0.1400, 0.2499))
	k.ep = 8
	p8, ok8 := streamPoint(k, rows(0.08375, 0.13955))
	if !ok4 || !ok8 {
		t.Fatal("no point")
	}
	if p4.TLo != 16 || p4.THi != 32 || p4.HitsHi-p4.HitsLo != 32 || p8.HitsHi-p8.HitsLo != 16 {
		t.Errorf("points %+v %+v", p4, p8)
	}
	const expert = 3 * 7168 * 2048 * 4.5 / 8
	for _, c := range []struct {
		got, want float64
	}{{p4.BytesPerS, 32 * expert / 0.1099e-3}, {p8.BytesPerS, 16 * expert / 0.0558e-3}} {
		if math.Abs(c.got/c.want-1) > 1e-3 {
			t.Errorf("slope %.4g, want %.4g", c.got, c.want)
		}
	}
	if mean := (p4.BytesPerS + p8.BytesPerS) / 2; math.Abs(mean/7.16e12-1) > 0.005 {
		t.Errorf("EP4/EP8 mean %.4g, the hand figure 7.16e12", mean)
	}
}

// A non-gated (relu²) expert has two matrices, not three.
func TestStreamPointUngated(t *testing.T) {
	rows := []streamRow{{4, 0.05e-3}, {8, 0.10e-3}}
	g, _ := streamPoint(streamKey{dtype: "bfloat16", H: 2048, I: 1024, k: 8, E: 64, tp: 1, ep: 1}, rows)
	n, _ := streamPoint(streamKey{dtype: "bfloat16", H: 2688, I: 1856, k: 6, E: 128, tp: 1, ep: 1}, rows)
	if want := 32 * 3 * 2048 * 1024 * 2 / 0.05e-3; math.Abs(g.BytesPerS/want-1) > 1e-3 {
		t.Errorf("gated %.4g, want %.4g", g.BytesPerS, want)
	}
	if want := 24 * 2 * 2688 * 1856 * 2 / 0.05e-3; math.Abs(n.BytesPerS/want-1) > 1e-3 {
		t.Errorf("relu² %.4g, want %.4g", n.BytesPerS, want)
	}
}
