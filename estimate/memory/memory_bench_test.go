package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// BenchmarkMemoryPP4 exercises the per-stage path (four pipeline stages).
func BenchmarkMemoryPP4(b *testing.B) {
	in := testinput.Quick(b, resolve.QuickOptions{Model: "deepseek-r1", GPU: "h20-3e", TP: 8, PP: 4})
	for b.Loop() {
		_ = Estimate(in)
	}
}
