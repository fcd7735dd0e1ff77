package plan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vlaunch/vlaunch/internal/specfixture"
	"github.com/vlaunch/vlaunch/validate"
)

// BenchmarkPlanReference is the whole plan of the reference scenario
// (DeepSeek-V3 on 4 × 8 H20 at 25 Gbit/s): the issue asks for under 2 s.
func BenchmarkPlanReference(b *testing.B) {
	benchPlan(b, filepath.Join("..", "examples", "deepseek-v3-32xh20.yaml"))
}

func benchPlan(b *testing.B, path string) {
	d, ds, err := validate.File(path)
	if err != nil || ds.HasErrors() {
		b.Fatal(err, ds)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Plan(d, Options{Seed: 1, File: path, Source: src})
	}
}

// BenchmarkPlan256 is the same scenario on 32 nodes × 8 H20 (256 GPUs):
// the issue asks for under 10 s.
func BenchmarkPlan256(b *testing.B) {
	benchPlan(b, filepath.Join("testdata", "deepseek-v3-256xh20.yaml"))
}

// BenchmarkPlan10000Nodes is the reference scenario on 10,000 nodes × 8
// H20 with `parallelism: auto` (the largest spec validate accepts): #15
// asks for under 10 s.
func BenchmarkPlan10000Nodes(b *testing.B) {
	benchPlan(b, specfixture.WriteAutoOnNodes(b, filepath.Join("..", "examples"), 10000))
}
