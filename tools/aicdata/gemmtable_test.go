package main

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestGemmTable writes a small gemm_perf table (grid rows, an off-grid row,
// fp8_block rows above and below the fp8 ones) and checks the compaction and the
// lookup on it.
func TestGemmTable(t *testing.T) {
	rows := []gemmRow{
		{"bfloat16", 1, 4096, 4096, 0.010}, // 10 µs
		{"bfloat16", 4, 4096, 4096, 0.040}, // 40 µs
		{"bfloat16", 2, 4096, 4096, 0.025}, // off the grid: left out
		{"bfloat16", 1, 4096, 4096, 0.999}, // repeated shape: the first row stands
		{"fp8", 1, 4096, 4096, 0.006},      // 6 µs
		{"fp8", 4, 4096, 4096, 0.300},      // 300 µs
		{"fp8", 16, 4096, 4096, 0.250},     // less than at M = 4
		{"fp8", 1, 64, 64, 0.030},          // slower at M = 1 than at M = 4 …
		{"fp8", 4, 64, 64, 0.005},          // … so fp8_block at M = 1 takes 5 µs
		{"fp8_block", 1, 64, 64, 0.055},
		{"fp8_block", 1, 4096, 4096, 0.060},  // host-bound: fp8's 6 µs stands
		{"fp8_block", 4, 4096, 4096, 0.260},  // above fp8's 250 µs at M = 16: 250
		{"fp8_block", 16, 4096, 4096, 0.100}, // no fp8 row: kept as measured
		{"nvfp4", 1, 4096, 4096, 0.009},      // 9 µs, as measured …
		{"nvfp4", 4, 4096, 4096, 0.500},      // … even above fp8's 250 µs at M = 16 (no fp8 rule)
		{"nvfp4", 8, 4096, 4096, 0.011},      // off the grid: left out
	}
	p := filepath.Join(t.TempDir(), "gemm_perf.parquet")
	if err := parquet.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	tab, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	g := compactGemm(readGemmRows(tab))
	n := 6 // gemmGridNK[6] = 4096
	if gemmGridNK[n] != 4096 || gemmGridM[1] != 4 {
		t.Fatalf("grid changed: %v %v", gemmGridM, gemmGridNK)
	}
	bf := g.Lat["bfloat16"]
	if bf[0][n][n] != 10 || bf[1][n][n] != 40 || bf[2][n][n] != -1 || bf[0][0][0] != -1 {
		t.Fatalf("bfloat16 cells %v %v %v %v", bf[0][n][n], bf[1][n][n], bf[2][n][n], bf[0][0][0])
	}
	blk := g.Lat["fp8_block"]
	if g.BlockFloorUs != 55 || blk[0][n][n] != 6 || blk[1][n][n] != 250 || blk[2][n][n] != 100 || blk[0][0][0] != 5 || g.HostBound != 3 {
		t.Fatalf("fp8_block: floor %v cells %v %v %v %v host-bound %d", g.BlockFloorUs, blk[0][n][n], blk[1][n][n], blk[2][n][n], blk[0][0][0], g.HostBound)
	}
	if nv := g.Lat["nvfp4"]; nv == nil || nv[0][n][n] != 9 || nv[1][n][n] != 500 || nv[2][n][n] != -1 {
		t.Errorf("nvfp4 cells (as measured, grid rows only): %v", nv)
	}
	if fp := g.Lat["fp8"]; fp[0][0][0] != 30 {
		t.Errorf("fp8 cells stay as measured: %v", fp[0][0][0])
	}
	// On the grid the lookup returns the cell; at M = 2 (halfway in log
	// between 1 and 4) the geometric mean, 20 µs; past the last M (no row
	// at 16) the last cell with a row; below M = 1 flat.
	for _, c := range []struct{ m, want float64 }{{1, 10}, {4, 40}, {2, 20}, {0.5, 10}} {
		if got := interpGemm(bf, c.m, 4096, 4096); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("interpGemm(M=%v) = %v, want %v", c.m, got, c.want)
		}
	}
	if got := interpGemm(bf, 100, 100, 100); got != 0 {
		t.Errorf("interpGemm where no corner has a row = %v, want 0", got)
	}
}
