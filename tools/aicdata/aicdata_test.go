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

type moeRow struct {
	Dtype        string  `parquet:"moe_dtype"`
	Distribution string  `parquet:"distribution"`
	Kernel       string  `parquet:"kernel_source"`
	Tokens       int64   `parquet:"num_tokens"`
	Hidden       int64   `parquet:"hidden_size"`
	Inter        int64   `parquet:"inter_size"`
	TopK         int64   `parquet:"topk"`
	Experts      int64   `parquet:"num_experts"`
	TP           int64   `parquet:"moe_tp_size"`
	EP           int64   `parquet:"moe_ep_size"`
	Latency      float64 `parquet:"latency"`
}

// A small moe_perf table through Load, moeRows and moeWidthPoints: two
// shapes (I = 1,024 and 4,096; 8 experts, top-2, H = 1,024) at 64 tokens
// per expert, each layout running at e0 × g(I/TP) with g = 0.5 at w = 256,
// 1 at 1,024, 1.5 at 4,096. The pooled curve at 64 is the median of
// {0.5, 1, 1, 1.5, 3}·e0 = e0 (the EP 2 row at ×3 counts in the curve, not
// in the factors), so each bin's factor is g. Left out of the factors: the
// EP row, a TP 16 row (beyond one node; not in the curve either), a row at
// 8 tokens per expert (below 32), a power-law row; a 1-token row sets the
// floor (1 ns, negligible). With -minshapes 2 only w = 1,024 (both shapes)
// stays.
func TestMoEWidthPoints(t *testing.T) {
	const peak, e0 = 1e15, 0.5
	row := func(I, tp, ep, T int64, g float64, dist string) moeRow {
		flops := 6 * float64(T) * 2 * 1024 * float64(I/tp) / float64(ep)
		return moeRow{"fp8_block", dist, "vllm_fp8moe_triton_tritonexperts", T, 1024, I, 2, 8, tp, ep, 1e3 * flops / (e0 * g * peak)}
	}
	rows := []moeRow{
		row(1024, 1, 1, 256, 1, "balanced"), row(1024, 4, 1, 256, 0.5, "balanced"),
		row(4096, 1, 1, 256, 1.5, "balanced"), row(4096, 4, 1, 256, 1, "balanced"),
		row(1024, 1, 2, 256, 3, "balanced"),  // EP: in the curve only
		row(4096, 16, 1, 256, 9, "balanced"), // TP 16: beyond -maxgpus 8
		row(4096, 4, 1, 32, 7, "balanced"),   // 8 tokens per expert
		row(4096, 4, 1, 256, 9, "power_law_1.01"),
	}
	floor := row(1024, 1, 1, 1, 1, "balanced")
	floor.Latency = 1e-6 // ms
	rows = append(rows, floor)
	p := filepath.Join(t.TempDir(), "moe_perf.parquet")
	if err := parquet.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	tab, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	moeMaxGPUs, moeFloorShare = 8, 1
	defer func() { moeMaxGPUs, moeFloorShare = 1e9, 0 }()
	obs := moeRows(tab, "fp8_block")
	if len(obs) != 7 {
		t.Fatalf("moeRows kept %d rows, want 7 (not the TP 16 or power-law rows)", len(obs))
	}
	pts := moeWidthPoints(obs, peak, 1, 1)
	want := []MoEWidthPoint{{W: 256, Factor: 0.5, Rows: 1, Shapes: 1}, {W: 1024, Factor: 1, Rows: 2, Shapes: 2}, {W: 4096, Factor: 1.5, Rows: 1, Shapes: 1}}
	if len(pts) != len(want) {
		t.Fatalf("points %+v, want %+v", pts, want)
	}
	for i, w := range want {
		g := pts[i]
		if g.W != w.W || math.Abs(g.Factor-w.Factor) > 0.005 || g.Rows != w.Rows || g.Shapes != w.Shapes {
			t.Errorf("point %d: %+v, want %+v", i, g, w)
		}
	}
	if pts := moeWidthPoints(obs, peak, 1, 2); len(pts) != 1 || pts[0].W != 1024 {
		t.Errorf("-minshapes 2: %+v, want the w = 1024 point alone", pts)
	}
	if pts := moeWidthPoints(obs, peak, 2, 1); len(pts) != 1 || pts[0].W != 1024 {
		t.Errorf("-minrows 2: %+v, want the w = 1024 point alone", pts)
	}
}

// busFactor is nccl-tests' algorithm-to-bus bandwidth factor: all-reduce
// moves 2(n−1)/n of the buffer per rank, the others (n−1)/n.
func TestBusFactor(t *testing.T) {
	for _, c := range []struct {
		op   string
		n    int
		want float64
	}{{"all_reduce", 8, 1.75}, {"all_reduce", 2, 1}, {"all_gather", 8, 0.875}, {"reduce_scatter", 4, 0.75}, {"alltoall", 2, 0.5}} {
		if got := busFactor(c.op, c.n); got != c.want {
			t.Errorf("busFactor(%s, %d) = %g, want %g", c.op, c.n, got, c.want)
		}
	}
}
