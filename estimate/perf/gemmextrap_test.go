package perf

import (
	"math"
	"testing"
)

// handTables is a one-table grid built from lat (µs; NaN: no row) on the
// axes m and nk, as loadGEMMTables builds the embedded ones.
func handTables(m, nk []float64, lat func(m, n, k float64) float64) (*gemmTables, []float64) {
	t := &gemmTables{m: m, nk: nk}
	for _, v := range m {
		t.logM = append(t.logM, math.Log(v))
	}
	for _, v := range nk {
		t.logNK = append(t.logNK, math.Log(v))
	}
	var flat []float64
	for _, a := range m {
		for _, b := range nk {
			for _, c := range nk {
				flat = append(flat, math.Log(lat(a, b, c)*1e-6))
			}
		}
	}
	return t, flat
}

// TestGEMMExtrapolation checks the lookup past and below a hand grid
// (M 1, 4, 16; N and K 64, 256) whose cells follow a launch of 2 µs plus
// work of m·n·k/4096 µs — affine in M, so the affine extrapolation past
// the largest M must give the law's own value — and the roofline floor.
func TestGEMMExtrapolation(t *testing.T) {
	law := func(m, n, k float64) float64 { return 2 + m*n*k/4096 }
	tb, flat := handTables([]float64{1, 4, 16}, []float64{64, 256}, law)
	us := 1e-6
	for _, c := range []struct {
		name    string
		m, n, k float64
		want    float64 // µs
	}{
		{"cell", 4, 256, 64, law(4, 256, 64)},
		{"M past the grid: affine through M = 4 and 16", 64, 256, 256, law(64, 256, 256)},
		{"M far past: still the law", 1 << 20, 64, 64, law(1<<20, 64, 64)},
		{"N past the grid: last cell × n/N_max", 16, 1024, 64, law(16, 256, 64) * 4},
		{"K past the grid: last cell × k/K_max", 4, 64, 512, law(4, 64, 256) * 2},
		{"N and K past: both ratios", 1, 512, 768, law(1, 256, 256) * 2 * 3},
		{"M, N past together", 32, 512, 64, law(32, 256, 64) * 2},
		{"below the grid: the smallest cell held", 0.5, 8, 16, law(1, 64, 64)},
	} {
		got := tb.timeOn(flat, GEMMTableBF16, c.m, c.n, c.k, nil)
		if math.Abs(got/(c.want*us)-1) > 1e-9 {
			t.Errorf("%s: %.6g µs, want %.6g", c.name, got/us, c.want)
		}
	}

	// The table's largest M plane empty for a shape (a100_sxm's M =
	// 16384): past M = 4 that shape is extrapolated from M = 1 and 4, not
	// held at M = 4 by renormalising the interpolation onto it.
	holed, hflat := handTables([]float64{1, 4, 16}, []float64{64, 256}, func(m, n, k float64) float64 {
		if m == 16 && n == 256 {
			return math.NaN()
		}
		return law(m, n, k)
	})
	if got, want := holed.timeOn(hflat, GEMMTableBF16, 8, 256, 64, nil), law(8, 256, 64)*us; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("empty top plane: M = 8 %.6g µs, want %.6g (held at M = 4: %.6g)", got/us, want/us, law(4, 256, 64))
	}

	// A last pair falling with M (scatter) gives no negative slope: held
	// at the last cell, then floored at the roofline.
	falling, fflat := handTables([]float64{1, 4, 16}, []float64{64, 256}, func(m, n, k float64) float64 { return 10 - m/4 })
	if got, want := falling.timeOn(fflat, GEMMTableBF16, 1024, 64, 64, nil), 6*us; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("falling last pair: %.6g µs, want the last cell %.6g", got/us, want/us)
	}
	// 1 TFLOP/s and 1 GB/s: 2·1024·64·64 FLOPs = 8.39 µs; 64·64·2 +
	// 2·1024·128 bytes = 270 µs.
	pk := gemmPeaks{bf16: 1e12, hbm: 1e9}
	floor := (64*64*2 + 2*1024*128) / 1e9
	if got := falling.timeOn(fflat, GEMMTableBF16, 1024, 64, 64, &pk); math.Abs(got/floor-1) > 1e-9 {
		t.Errorf("floored: %.6g µs, want the byte floor %.6g", got/us, floor/us)
	}
	// Inside the grid the measured cell stands, floor or not.
	if got, want := falling.timeOn(fflat, GEMMTableBF16, 16, 64, 64, &pk), 6*us; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("cell under the floor: %.6g µs, want it as measured %.6g", got/us, want/us)
	}
}

// TestGEMMExtrapolatedLMHead prices Llama-3.1-8B's LM head (N = 128,256,
// K = 4,096, BF16) at one sampled row, past the tables' N = 65,536: the
// N = 65,536 cell scaled by 128,256/65,536 (B200 85.7 -> 167.7 µs, H100
// 218 -> 427 µs), above the weight-byte floor (1.05 GB: 137 µs at B200's
// 7.7 TB/s, 314 µs at H100's 3.35) that the held cell fell under on B200.
// And a 32,768-token prefill of its gate_up (N = 28,672, K = 4,096) on
// H100, past M = 16,384: more than twice the 16,384-row time, not held.
func TestGEMMExtrapolatedLMHead(t *testing.T) {
	us := 1e-6
	for _, c := range []struct {
		gpu  string
		cell float64 // the N = 65,536 cell (µs)
	}{
		{"b200", 85.7},
		{"h100-sxm", 218},
	} {
		g := perfGPU(t, c.gpu)
		got, ok := GEMMTime(g, GEMMTableBF16, 1, 128256, 4096)
		want := c.cell * us * 128256 / 65536
		if !ok || math.Abs(got/want-1) > 1e-9 {
			t.Errorf("%s LM head: %.1f µs, want %.1f", c.gpu, got/us, want/us)
		}
		bytesFloor := 128256 * 4096 * 2 / (g.HBMBandwidthGBytesPerS * 1e9)
		if got < bytesFloor {
			t.Errorf("%s LM head %.1f µs under its weight-byte floor %.1f", c.gpu, got/us, bytesFloor/us)
		}
		if held, _ := GEMMTime(g, GEMMTableBF16, 1, 65536, 4096); math.Abs(held/(c.cell*us)-1) > 1e-9 {
			t.Errorf("%s N = 65536 cell %.1f µs, want %.1f", c.gpu, held/us, c.cell)
		}
	}
	h100 := perfGPU(t, "h100-sxm")
	a, _ := GEMMTime(h100, GEMMTableBF16, 16384, 28672, 4096)
	b, _ := GEMMTime(h100, GEMMTableBF16, 32768, 28672, 4096)
	flops := 2 * 32768 * 28672 * 4096 / (h100.BF16TFLOPS * 1e12)
	if b < 1.9*a || b > 2.2*a || b < flops {
		t.Errorf("H100 gate_up: M = 32768 %.0f µs against M = 16384 %.0f µs (FLOP floor %.0f)", b/us, a/us, flops/us)
	}
}
