package slo

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// TestStepBindingNamesTheLargestTerm: an SLO bound by a step names the
// step's largest term, host overhead included (it was reported as
// "compute" beside a compute time a fifteenth of the host's).
func TestStepBindingNamesTheLargestTerm(t *testing.T) {
	for _, tt := range []struct {
		st   perf.StepTime
		want string
	}{
		{perf.StepTime{ComputeBoundS: 0.3e-3, MemoryBoundS: 4.5e-3, KernelGapsS: 2.6e-3, OverheadS: 4.6e-3}, "overhead"},
		{perf.StepTime{ComputeBoundS: 0.3e-3, MemoryBoundS: 4.7e-3, KernelGapsS: 2.6e-3, OverheadS: 4.6e-3}, BindMemory},
		{perf.StepTime{ComputeBoundS: 9e-3, MemoryBoundS: 4.7e-3, OverheadS: 4.6e-3}, BindCompute},
		{perf.StepTime{ComputeBoundS: 1e-3, ExposedNetworkS: 9e-3, OverheadS: 4.6e-3}, BindNetwork},
	} {
		if got := stepBinding(tt.st); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.st, got, tt.want)
		}
	}
}
