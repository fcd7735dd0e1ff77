package report

import (
	"io"
	"testing"
)

// BenchmarkCheckReference is `vlaunch check` on the reference scenario
// (validation, both halves of the estimate, the text report): the issue
// asks for under 0.3 s.
func BenchmarkCheckReference(b *testing.B) {
	for i := 0; i < b.N; i++ {
		WriteText(io.Discard, checkExample(b, "deepseek-v3-32xh20.yaml"))
	}
}
