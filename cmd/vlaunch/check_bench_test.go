package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/internal/specfixture"
)

// BenchmarkCheckAuto10000Nodes is `vlaunch check` on the heaviest valid
// spec of the hostile-input table: the reference on 10,000 nodes with
// `parallelism: auto` — validation of the node list, the layout search and
// the serving simulation of the layout it picks (#15 asks any check under
// 2 s).
func BenchmarkCheckAuto10000Nodes(b *testing.B) {
	path := specfixture.WriteAutoOnNodes(b, filepath.Join("..", "..", "examples"), 10000)
	var out strings.Builder
	for b.Loop() {
		out.Reset()
		if code := run([]string{"check", path}, strings.NewReader(""), &out, io.Discard); code > 1 {
			b.Fatalf("exit %d", code)
		}
	}
	if !strings.Contains(out.String(), "DP 10000") {
		b.Fatalf("not the 10,000-node check:\n%.500s", out.String())
	}
}
