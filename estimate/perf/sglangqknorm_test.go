package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestSGLangQKNormKernels checks where SGLang's unfused q/k norms are
// counted: four kernels an attention layer for a per-head q/k-norm model
// under a known SGLang release before 0.5.7, nothing elsewhere.
func TestSGLangQKNormKernels(t *testing.T) {
	defer func(was bool) { UseSGLangQKNormOps = was }(UseSGLangQKNormOps)
	UseSGLangQKNormOps = true
	model := func(id string) *catalog.Model {
		m, err := catalog.LookupModel(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		return m
	}
	qwen, dsv3 := model("qwen3-235b-a22b"), model("deepseek-v3")
	if !qwen.QKNorm || dsv3.QKNorm {
		t.Fatalf("catalog: qwen3-235b-a22b QKNorm %v, deepseek-v3 QKNorm %v", qwen.QKNorm, dsv3.QKNorm)
	}
	for _, tc := range []struct {
		name string
		m    *catalog.Model
		edit func(*StepSetup)
		want float64
	}{
		{"Qwen3-MoE on SGLang 0.5.6", qwen, func(*StepSetup) {}, 4 * 94},
		{"0.5.5.post1 is before 0.5.7", qwen, func(s *StepSetup) { s.SGLangVersion = [3]int{0, 5, 5} }, 4 * 94},
		{"0.5.7: not known to be unfused", qwen, func(s *StepSetup) { s.SGLangVersion = [3]int{0, 5, 7} }, 0},
		{"unknown release", qwen, func(s *StepSetup) { s.SGLangVersion = [3]int{} }, 0},
		{"vLLM", qwen, func(s *StepSetup) { s.SGLang = false }, 0},
		{"no q/k norm (DeepSeek-V3)", dsv3, func(*StepSetup) {}, 0},
		{"switch off", qwen, func(*StepSetup) { UseSGLangQKNormOps = false }, 0},
	} {
		UseSGLangQKNormOps = true
		s := StepSetup{SGLang: true, SGLangVersion: [3]int{0, 5, 6}}
		tc.edit(&s)
		n := float64(tc.m.NumLayers)
		if got := sglangQKNormKernels(tc.m, &s, n); got != tc.want {
			t.Errorf("%s: %v kernels, want %v", tc.name, got, tc.want)
		}
		// k's copy and norm run on the alternate stream under graphs.
		if got := sglangQKNormAltStream(tc.m, &s, n); got != tc.want/2 {
			t.Errorf("%s: %v kernels off the critical path, want %v", tc.name, got, tc.want/2)
		}
	}
}
