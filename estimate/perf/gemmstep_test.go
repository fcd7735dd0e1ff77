package perf

import (
	"math"
	"testing"
)

// TestGEMMSmallMStep reads cells of the embedded tables that the M = 1
// bound (UseGEMMSmallMStepBound) decides: b200_sxm's per-tensor FP8 row at
// N = K = 4096 reads 24.6 µs at M = 1 and 9.28 µs at M = 4 (the least of
// its larger-M cells; vLLM runs M = 1 … 16 through one CUTLASS
// configuration), so M = 1 takes 9.28 and M = 2 (between the two in log
// M) 9.28 too; b300_sxm's 23.5 µs takes its M = 16 cell, 8.62. Larger-M
// cells keep their measurement (b200_sxm N = 8192, K = 4096 at M = 16:
// 21.6 µs between 11.4 and 11.6). h100_sxm's FP8 table carries no step
// (median M = 1 cell 0.98× the least larger one) and keeps its M = 1
// cell, 13.8 µs, though 11.9 is measured at M = 4; B200's BF16 table
// keeps its 9.68 µs.
func TestGEMMSmallMStep(t *testing.T) {
	us := 1e-6
	for _, c := range []struct {
		name    string
		gpu     string
		dt      GEMMDType
		m, n, k float64
		want    float64
	}{
		{"b200 fp8 M=1 4096² bounded by M=4", "b200", GEMMTableFP8, 1, 4096, 4096, 9.28 * us},
		{"b200 fp8 M=2 4096² between bounded cells", "b200", GEMMTableFP8, 2, 4096, 4096, 9.28 * us},
		{"b200 fp8 M=1 16384×4096 bounded by M=64", "b200", GEMMTableFP8, 1, 16384, 4096, 16.6 * us},
		{"b200 fp8 M=16 8192×4096 kept as measured", "b200", GEMMTableFP8, 16, 8192, 4096, 21.6 * us},
		{"b300 fp8 M=1 4096² bounded by M=16", "b300", GEMMTableFP8, 1, 4096, 4096, 8.62 * us},
		{"h100 fp8 M=1 4096² as measured", "h100-sxm", GEMMTableFP8, 1, 4096, 4096, 13.8 * us},
		{"b200 bf16 M=1 4096² as measured", "b200", GEMMTableBF16, 1, 4096, 4096, 9.68 * us},
	} {
		got, ok := GEMMTime(perfGPU(t, c.gpu), c.dt, c.m, c.n, c.k)
		if !ok || math.Abs(got/c.want-1) > 1e-9 {
			t.Errorf("%s: GEMMTime = %.4g µs, %v; want %.4g µs", c.name, got/us, ok, c.want/us)
		}
	}
}

// TestSmallMStepRule checks smallMStep and boundSmallestM on a hand-made
// 3 × 2 × 2 grid (M × N × K, log latencies): the step is the median over
// shapes of M = 1 over the least larger-M cell, and the bound lowers an
// M = 1 cell to the least cell above it in M, leaving the larger-M cells
// as measured and cells without a row without one.
func TestSmallMStepRule(t *testing.T) {
	nan := math.NaN()
	l := math.Log
	// shapes (n, k) = 0: 30, 10, 12 → step 3; 1: 20, 25, 10 → step 2;
	// 2: 9, 10, 11 → 0.9; 3: no row at M = 1.
	flat := []float64{
		l(30), l(20), l(9), nan,
		l(10), l(25), l(10), l(8),
		l(12), l(10), l(11), l(7),
	}
	if got := smallMStep(flat, 3, 2); math.Abs(got-2) > 1e-12 {
		t.Errorf("smallMStep = %v, want 2 (median of 3, 2, 0.9)", got)
	}
	boundSmallestM(flat, 3, 2)
	want := []float64{
		10, 10, 9, nan,
		10, 25, 10, 8,
		12, 10, 11, 7,
	}
	for i, w := range want {
		got := math.Exp(flat[i])
		if math.IsNaN(w) != math.IsNaN(flat[i]) || (!math.IsNaN(w) && math.Abs(got-w) > 1e-9) {
			t.Errorf("cell %d: %v, want %v", i, got, w)
		}
	}
	if got := smallMStep([]float64{nan, l(3)}, 2, 1); got != 1 {
		t.Errorf("no shape with an M = 1 cell: step %v, want 1", got)
	}
}

// TestFP8DecodeAgainstBF16 prices the dense projections of a batch-1
// decode step (one token, one sampled row) in BF16 and FP8 from the
// measured tables: Llama-3.1-8B at TP1 and Llama-3.3-70B at TP2, on B200
// and H100. At M = 1 every projection streams its weights, and FP8
// streams half the bytes of BF16 (the LM head stays BF16 in both), so the
// FP8 step must be faster, and no faster than its weights at the HBM
// peak. Before the M = 1 bound, B200's FP8 step read 4.1 ms against
// BF16's 2.8 ms for the 8B model (qa43 F5).
func TestFP8DecodeAgainstBF16(t *testing.T) {
	for _, c := range []struct {
		model, gpu string
		tp         int
	}{
		{"llama-3.1-8b", "b200", 1},
		{"llama-3.3-70b", "b200", 2},
		{"llama-3.1-8b", "h100-sxm", 1},
		{"llama-3.3-70b", "h100-sxm", 2},
	} {
		g := perfGPU(t, c.gpu)
		m := perfModel(t, c.model)
		dense := func(dt string) (time, bytes float64) {
			s := StepSetup{Model: m, TP: c.tp, PP: 1, DP: 1, WeightDType: dt,
				HW: NewHardware(g, 8, 0, 2, 0, 0, 0), Eff: ForGPU(DefaultEfficiency, g)}
			d := newDenseGEMMs(&s)
			if d == nil {
				t.Fatalf("%s %s %s: no table", c.model, c.gpu, dt)
			}
			for _, sh := range d.shapes {
				_, wb := (&gemmPeaks{}).of(sh.dt)
				bytes += sh.count * sh.n * sh.k * wb
			}
			return d.time(1, 1), bytes
		}
		bf, _ := dense("bf16")
		fp, fpBytes := dense("fp8")
		floor := fpBytes / (g.HBMBandwidthGBytesPerS * 1e9)
		if fp >= bf || fp < floor {
			t.Errorf("%s TP%d on %s at batch 1: FP8 projections %.2f ms, BF16 %.2f ms (FP8/BF16 %.2f), FP8 weight floor %.2f ms; want floor ≤ FP8 < BF16",
				c.model, c.tp, c.gpu, fp*1e3, bf*1e3, fp/bf, floor*1e3)
		}
	}
}
