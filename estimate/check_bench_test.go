package estimate

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// BenchmarkCheckMemoryReference is the memory half of `vlaunch check` on the
// reference scenario: placement, weights, activations, KV, capacity, the
// BF16/FP8 alternatives, notes and findings (target: well under 1 ms).
func BenchmarkCheckMemoryReference(b *testing.B) {
	in := testinput.Example(b, "deepseek-v3-32xh20.yaml")
	for b.Loop() {
		r := Check(&in)
		if r.Memory.KVBytesPerToken != 70272 {
			b.Fatal("wrong result")
		}
	}
}

// BenchmarkResolveAndCheckReference includes spec resolution (catalog
// lookups parse the embedded config.json) on top of the memory check.
func BenchmarkResolveAndCheckReference(b *testing.B) {
	in := testinput.Example(b, "deepseek-v3-32xh20.yaml")
	for b.Loop() {
		in2, _ := input.Quick(resolve.QuickOptions{Model: "deepseek-v3", GPU: "h20", DP: 32, EP: true, MaxModelLen: 32768, Weights: "bf16", VLLMVersion: in.VLLMVersion, Concurrency: 200})
		_ = Check(&in2)
	}
}

// BenchmarkCheckReference is all of `vlaunch check` on the reference
// scenario after resolution: memory, the step model, the three simulated
// scenarios (512, 1K and 4K prompts at 200 sessions), the SLO verdicts with
// their bands and the what-it-would-take searches (target: under 0.5 s).
func BenchmarkCheckReference(b *testing.B) {
	in := testinput.Example(b, "deepseek-v3-32xh20.yaml")
	for b.Loop() {
		r := Check(&in)
		r.AddPerformance(&in, PerfOptions{Seed: 1})
		if len(r.SLO) == 0 {
			b.Fatal("no verdicts")
		}
	}
}

// BenchmarkCheckPD is `vlaunch check` of the P/D example after resolution:
// both pools' memory, the composed scenarios (two pools' simulations per
// input length), the verdicts, and the same GPUs checked colocated
// (target: under 1 s).
func BenchmarkCheckPD(b *testing.B) {
	in := testinput.Example(b, "deepseek-v3-pd-32xh20.yaml")
	for b.Loop() {
		r := CheckPD(in.Resolved(), PerfOptions{Seed: 1})
		if r.Disaggregated == nil || len(r.SLO) == 0 {
			b.Fatal("no P/D report")
		}
	}
}
