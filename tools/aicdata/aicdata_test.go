package main

import (
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
