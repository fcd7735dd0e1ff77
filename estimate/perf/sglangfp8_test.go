package perf

import "testing"

// TestSGLangFP8TritonFactor checks where the SGLang Triton FP8 factor
// applies: an SGLang release before 0.5.10 with FP8 experts on a GPU that
// reads the h100_sxm or h200_sxm tables, at the tables' medians between
// their points, and nowhere else.
func TestSGLangFP8TritonFactor(t *testing.T) {
	defer func(was bool) { UseSGLangTritonFP8Rate = was }(UseSGLangTritonFP8Rate)
	UseSGLangTritonFP8Rate = true
	base := func() StepSetup {
		s := StepSetup{SGLang: true, SGLangVersion: [3]int{0, 5, 3}, WeightDType: "fp8"}
		s.Eff.Kernels.System = "h200_sxm"
		return s
	}
	for _, tc := range []struct {
		name string
		edit func(*StepSetup)
		x    float64
		want float64
	}{
		{"H200 0.5.3 at 512 tokens an expert", func(*StepSetup) {}, 512, 1.49},
		{"between points (log2 midway 256..512)", func(*StepSetup) {}, 362.0387, (1.38 + 1.49) / 2},
		{"held flat above the last point", func(*StepSetup) {}, 1e5, 1.63},
		{"H100 tables", func(s *StepSetup) { s.Eff.Kernels.System = "h100_sxm" }, 128, 1.28},
		{"0.5.9 is before 0.5.10", func(s *StepSetup) { s.SGLangVersion = [3]int{0, 5, 9} }, 1024, 1.58},
		{"0.5.10: not applied", func(s *StepSetup) { s.SGLangVersion = [3]int{0, 5, 10} }, 512, 1},
		{"0.6.0: not applied", func(s *StepSetup) { s.SGLangVersion = [3]int{0, 6, 0} }, 512, 1},
		{"unknown release", func(s *StepSetup) { s.SGLangVersion = [3]int{} }, 512, 1},
		{"vLLM", func(s *StepSetup) { s.SGLang = false }, 512, 1},
		{"BF16 experts", func(s *StepSetup) { s.WeightDType = "bf16" }, 512, 1},
		{"B200 tables", func(s *StepSetup) { s.Eff.Kernels.System = "b200_sxm" }, 512, 1},
	} {
		s := base()
		tc.edit(&s)
		if got := s.sglangFP8TritonFactor(tc.x); !perfNear(got, tc.want, 1e-3) {
			t.Errorf("%s: factor %.4f, want %.4f", tc.name, got, tc.want)
		}
	}
	UseSGLangTritonFP8Rate = false
	if s := base(); s.sglangFP8TritonFactor(512) != 1 {
		t.Errorf("switch off: factor %.4f, want 1", s.sglangFP8TritonFactor(512))
	}
}
