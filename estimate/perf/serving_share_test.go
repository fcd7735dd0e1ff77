package perf

import (
	"math"
	"testing"
)

// servingFactor by hand, with peaks chosen so the ridge is easy to see:
// BF16 1e15 FLOP/s, FP8 2e15, HBM 1e13 B/s; a 1000 × 1000 weight.
// BF16 at M rows: FLOPs 2·M·1e6 over 1e15 = 2e-9·M s; bytes 2e6 (weight)
// + 2·M·2000 (activations in and out) over 1e13 = 2e-7 + 4e-10·M s.
//   - M = 1: 2e-9 / 2.004e-7 < 1: at or below the ridge, factor 1.
//   - M = 100: 2e-7 / 2.4e-7 = 0.833: factor 1.
//   - M = 200: 4e-7 / 2.8e-7 = 1.4286: factor 1.4286 (share 0.5 caps at 2).
//   - M = 10000: 2e-5 / 4.2e-6 = 4.76: capped at 1/share = 2.
//
// FP8 at M = 200: FLOPs 4e8 / 2e15 = 2e-7 s; bytes 1e6 + 8e5 over 1e13 =
// 1.8e-7 s; ratio 1.111.
func TestServingFactor(t *testing.T) {
	pk := gemmPeaks{bf16: 1e15, fp8: 2e15, hbm: 1e13}
	bf := gemmShape{n: 1000, k: 1000, dt: GEMMTableBF16}
	f8 := gemmShape{n: 1000, k: 1000, dt: GEMMTableFP8}
	cases := []struct {
		name  string
		share float64
		g     gemmShape
		m     float64
		want  float64
	}{
		{"decode row", 0.5, bf, 1, 1},
		{"below the ridge", 0.5, bf, 100, 1},
		{"past the ridge", 0.5, bf, 200, 4e-7 / 2.8e-7},
		{"prompt-sized", 0.5, bf, 10000, 2},
		{"fp8 past the ridge", 0.5, f8, 200, 2e-7 / 1.8e-7},
		{"share 1: tables as measured", 1, bf, 10000, 1},
		{"share unset", 0, bf, 10000, 1},
		{"MeasuredCompute's share", DefaultEfficiency.MeasuredCompute, bf, 1e6, 1 / DefaultEfficiency.MeasuredCompute},
	}
	for _, c := range cases {
		d := denseGEMMs{share: c.share, peaks: pk}
		if got := d.servingFactor(&c.g, c.m); math.Abs(got-c.want) > 1e-9*c.want {
			t.Errorf("%s: servingFactor(M=%g) = %.6g, want %.6g", c.name, c.m, got, c.want)
		}
	}
}

// The factor never decreases with M (no step gets cheaper for more
// tokens) and is continuous at the ridge.
func TestServingFactorMonotone(t *testing.T) {
	d := denseGEMMs{share: 0.42, peaks: gemmPeaks{bf16: 989e12, fp8: 1979e12, hbm: 3.35e12}}
	g := gemmShape{n: 7168, k: 5120, dt: GEMMTableBF16}
	prev := 0.0
	for m := 1.0; m <= 65536; m *= 1.05 {
		f := d.servingFactor(&g, m)
		if f < prev-1e-12 {
			t.Fatalf("factor falls at M=%g: %g after %g", m, f, prev)
		}
		if prev > 0 && f-prev > 0.06*prev {
			t.Fatalf("factor jumps at M=%g: %g after %g", m, f, prev)
		}
		prev = f
	}
	if math.Abs(prev-1/0.42) > 1e-9 {
		t.Errorf("a prompt-sized GEMM's factor %g, want 1/0.42", prev)
	}
}

// With the switch off (the default) a step model's tables keep share 1.
func TestServingShareOffByDefault(t *testing.T) {
	if UseServingGEMMShare {
		t.Skip("switch on")
	}
	d := denseGEMMs{share: 1}
	g := gemmShape{n: 1000, k: 1000}
	if f := d.servingFactor(&g, 1e6); f != 1 {
		t.Errorf("factor %g with share 1", f)
	}
}
