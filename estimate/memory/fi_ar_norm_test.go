package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestFIARNormTermsWhen: the workspace is charged a second time only where
// vLLM makes it inside the CUDA-graph profiling and subtracts that
// estimate. Base: the MiniMax-M3 log (32,768 batched tokens, above the
// fused path's 5,461; graphs on; 0.24.0 profiles them by default).
func TestFIARNormTermsWhen(t *testing.T) {
	charged := func(mod func(in *input.Input)) bool {
		in := m3LogInput(t)
		if mod != nil {
			mod(in)
		}
		for _, x := range NonTorch(in) {
			if x.Name == termFIARInGraphBudget {
				return true
			}
		}
		return false
	}
	if !charged(nil) {
		t.Fatal("the MiniMax-M3 log's launch: workspace not charged in the CUDA-graph estimate")
	}
	for _, tc := range []struct {
		name string
		mod  func(in *input.Input)
	}{
		{"a 4,096-token profile batch takes the fused path: made in the profile run, once", func(in *input.Input) { in.MaxNumBatchedTokens = 4096 }},
		{"no CUDA graphs: made after the KV cache", func(in *input.Input) { in.CUDAGraphs = false }},
		{"estimate not applied", func(in *input.Input) { in.Env = map[string]string{vllm.GraphMemoryVariable: "0"} }},
		{"TP 1", func(in *input.Input) { in.Layout.TP = 1 }},
	} {
		if charged(tc.mod) {
			t.Errorf("%s: charged", tc.name)
		}
	}
}
