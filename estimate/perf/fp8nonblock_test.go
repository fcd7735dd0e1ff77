package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestNonBlockFP8Factor checks where the non-block FP8 fused-MoE factor
// applies: FP8 experts without weight_block_size on a GPU that reads the
// h100_sxm or h200_sxm tables, at the tables' medians between their
// points, and nowhere else (block-scaled, ModelOpt, BF16, other GPUs).
func TestNonBlockFP8Factor(t *testing.T) {
	defer func(was bool) { UseNonBlockFP8MoERate = was }(UseNonBlockFP8MoERate)
	UseNonBlockFP8MoERate = true
	base := func() StepSetup {
		s := StepSetup{WeightDType: "fp8", Model: &catalog.Model{}}
		s.Eff.Kernels.System = "h200_sxm"
		return s
	}
	for _, tc := range []struct {
		name string
		edit func(*StepSetup)
		x    float64
		want float64
	}{
		{"H200 at 512 tokens an expert", func(*StepSetup) {}, 512, 1.56},
		{"between points (log2 midway 256..512)", func(*StepSetup) {}, 362.0387, (1.45 + 1.56) / 2},
		{"held flat above the last point", func(*StepSetup) {}, 1e5, 1.74},
		{"H100 tables", func(s *StepSetup) { s.Eff.Kernels.System = "h100_sxm" }, 256, 1.40},
		{"block-scaled checkpoint", func(s *StepSetup) { s.Model.Quant.WeightBlockSize = []int{128, 128} }, 512, 1},
		{"ModelOpt FP8", func(s *StepSetup) { s.Model.Quant.Format = catalog.FormatModelOptFP8 }, 512, 1},
		{"BF16 experts", func(s *StepSetup) { s.WeightDType = "bf16" }, 512, 1},
		{"no model", func(s *StepSetup) { s.Model = nil }, 512, 1},
		{"B200 tables", func(s *StepSetup) { s.Eff.Kernels.System = "b200_sxm" }, 512, 1},
	} {
		s := base()
		tc.edit(&s)
		if got := s.nonBlockFP8Factor(tc.x); !perfNear(got, tc.want, 1e-3) {
			t.Errorf("%s: factor %.4f, want %.4f", tc.name, got, tc.want)
		}
	}
	UseNonBlockFP8MoERate = false
	if s := base(); s.nonBlockFP8Factor(512) != 1 {
		t.Errorf("switch off: factor %.4f, want 1", s.nonBlockFP8Factor(512))
	}
}
