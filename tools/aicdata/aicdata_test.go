package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

func TestVersionLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"0.14.0", "0.24.0", true},
		{"0.9.0", "0.14.0", true},
		{"0.24.0", "0.22.0", false},
		{"2.27", "2.27.3", true},
		{"1.3.0rc10", "1.3.0rc20", true},
	} {
		if got := versionLess(c.a, c.b); got != c.want {
			t.Errorf("versionLess(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

type gemmRow struct {
	GemmDtype string  `parquet:"gemm_dtype"`
	M         int64   `parquet:"m"`
	N         int64   `parquet:"n"`
	K         int64   `parquet:"k"`
	Latency   float64 `parquet:"latency"`
}

// TestLoadAndLatest writes a tiny table under two release directories (the
// newer one holding only a reuse.yaml, as the upstream tree does) and reads
// it back through latestFile and Load.
func TestLoadAndLatest(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "0.19.0")
	reuse := filepath.Join(dir, "0.22.0")
	for _, d := range []string{old, reuse} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(reuse, "reuse.yaml"), []byte("reuse: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := []gemmRow{{"bfloat16", 1, 4096, 4096, 0.0125}, {"fp8", 2048, 8192, 8192, 0.5}}
	if err := parquet.WriteFile(filepath.Join(old, "gemm_perf.parquet"), rows); err != nil {
		t.Fatal(err)
	}
	p, v := latestFile(dir, "gemm_perf.parquet")
	if v != "0.19.0" {
		t.Fatalf("latestFile picked %q (%s), want 0.19.0", v, p)
	}
	tab, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Nums) != 2 || tab.Str(1, "gemm_dtype") != "fp8" || tab.Num(0, "n") != 4096 || tab.Num(1, "latency") != 0.5 {
		t.Fatalf("unexpected table: cols %v rows %v %v", tab.Cols, tab.Strs, tab.Nums)
	}
}

func TestFitLine(t *testing.T) {
	a, b := fitLine([]float64{1, 2, 3}, []float64{5, 7, 9})
	if a != 3 || b != 2 {
		t.Fatalf("fitLine = %v, %v; want 3, 2", a, b)
	}
}

// TestToCSV converts a small parquet table to CSV and checks the header and
// cells come out as aiconfigurator's CSV reader (csv.DictReader) expects, and
// that a failed conversion leaves no file behind.
func TestToCSV(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "gemm_perf.parquet")
	rows := []gemmRow{{"bfloat16", 1, 4096, 4096, 0.0125}, {"fp8,x", 2048, 8192, 8192, 0.5}}
	if err := parquet.WriteFile(in, rows); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gemm_perf.txt")
	if err := toCSV(in, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "gemm_dtype,m,n,k,latency\nbfloat16,1,4096,4096,0.0125\n\"fp8,x\",2048,8192,8192,0.5\n"
	if string(b) != want {
		t.Fatalf("csv =\n%s\nwant\n%s", b, want)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := toCSV(filepath.Join(dir, "missing.parquet"), bad); err == nil {
		t.Fatal("missing input: no error")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Fatalf("failed conversion left %s behind (%v)", bad, err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Fatalf("temporary files left in %s: %v", dir, ents)
	}
}

// Shapes whose rows share one efficiency per tokens-per-expert are
// predicted exactly by a curve built without them; a shape twice as slow
// is predicted at half its latency (LOSO |error| 50%, bias 0.5 on its rows).
func TestFitMoECurveLeaveOneShapeOut(t *testing.T) {
	const peak = 1e15
	eff := func(x float64) float64 { return math.Min(0.5, 0.01*x) }
	var obs []moeObs
	add := func(shape string, slow float64) {
		for _, x := range []float64{0.5, 1, 4, 16, 64, 256, 1024} {
			f := 6 * x * 4096 * 1024 * 8 // any FLOPs: the curve is per x
			obs = append(obs, moeObs{shape: shape, x: x, flops: f, latS: slow * f / (eff(x) * peak)})
		}
	}
	add("a", 1)
	add("b", 1)
	add("c", 1)
	c := fitMoECurve(obs, peak)
	if c.Shapes != 3 || c.Rows != 21 {
		t.Fatalf("shapes %d rows %d", c.Shapes, c.Rows)
	}
	if c.LOSO.Median > 1e-9 || c.InSample.P90 > 1e-9 {
		t.Fatalf("identical shapes: LOSO %+v, in-sample %+v", c.LOSO, c.InSample)
	}
	if got := c.Eff[binOf(64)]; math.Abs(got-0.5) > 1e-9 {
		t.Fatalf("curve at 64 = %g, want 0.5", got)
	}
	add("slow", 2)
	c = fitMoECurve(obs, peak)
	if c.LOSO.P90 < 0.49 || c.LOSO.Median > 1e-9 {
		t.Fatalf("one shape 2× slow: LOSO %+v, want median 0 and p90 ≈ 50%%", c.LOSO)
	}
}

// The curve is read log2-linearly between filled grid points and flat
// beyond them; empty points are skipped.
func TestCurveAt(t *testing.T) {
	eff := make([]float64, moeGridHi-moeGridLo+1)
	eff[binOf(1)], eff[binOf(4)] = 0.1, 0.3
	for _, tc := range []struct{ x, want float64 }{{0.01, 0.1}, {1, 0.1}, {2, 0.2}, {4, 0.3}, {1e5, 0.3}} {
		if got := CurveAt(eff, tc.x); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("CurveAt(%g) = %g, want %g", tc.x, got, tc.want)
		}
	}
	if CurveAt(make([]float64, 4), 1) != 0 {
		t.Error("an empty curve reads non-zero")
	}
}
