package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/internal/specfixture"
)

// BenchmarkCheckAuto10000Nodes is `vlaunch check` on the reference on
// 10,000 nodes with `parallelism: auto` — validation of the node list, the
// layout search over one engine and independent replicas on every whole
// share of the nodes (248 layouts, pruned by their bounds), and the serving
// simulation of the layout it picks (#15 asks any check under 2 s).
func BenchmarkCheckAuto10000Nodes(b *testing.B) {
	benchCheck(b, specfixture.Auto, "(10000 nodes)")
}

// BenchmarkCheckDP10000 is `vlaunch check` on the heaviest serving
// simulation a valid spec asks for: one engine of TP 8 × DP 10,000 without
// expert parallelism, every rank in lock-step (100 busy ranks of one
// session each simulated and tiled), and the reference's 3 scenarios.
func BenchmarkCheckDP10000(b *testing.B) {
	benchCheck(b, specfixture.DP10000, "TP 8 · PP 1 · DP 10000 · EP off")
}

// BenchmarkCheckDP10000MaxTTFT is BenchmarkCheckDP10000 with the most TTFT
// targets a spec may have (16, at 16 input lengths: 17 scenarios), which
// share the simulation work three scenarios get.
func BenchmarkCheckDP10000MaxTTFT(b *testing.B) {
	benchCheck(b, specfixture.DP10000, "TTFT p99 at 10000 input tokens", specfixture.MaxTTFTTargets)
}

// benchCheck runs check on the reference on 10,000 nodes with the given
// parallelism line and edits; want is in a report of that spec.
func benchCheck(b *testing.B, parallelism, want string, edits ...func([]byte) ([]byte, error)) {
	path := specfixture.WriteOnNodes(b, filepath.Join("..", "..", "examples"), 10000, parallelism, edits...)
	var out strings.Builder
	for b.Loop() {
		out.Reset()
		if code := run([]string{"check", path}, strings.NewReader(""), &out, io.Discard); code > 1 {
			b.Fatalf("exit %d", code)
		}
	}
	if !strings.Contains(out.String(), want) {
		b.Fatalf("not the 10,000-node check (no %q):\n%.500s", want, out.String())
	}
}
