package perf

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/spec"
)

// floorModel is the step model of an example spec.
func floorModel(t *testing.T, file string) *StepModel {
	t.Helper()
	d, ds := spec.Load("../../examples/" + file)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spec.ApplyDefaults(d)
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return NewStepModel(SetupFromInput(&in))
}

// TestWeightFloorMoE: the weight-read floor counts the routed experts a
// step's tokens are expected to hit (qa45b F4: it counted every resident
// expert, and exceeded the predicted step at small batches). It stays
// below the predicted step at every batch, grows with the batch, and
// reaches every resident weight once the batch hits every local expert; a
// dense model's floor is its resident weights at any batch.
func TestWeightFloorMoE(t *testing.T) {
	for _, file := range []string{"qwen3-30b-a3b-1xh100.yaml", "deepseek-v3-fp8-2x8h200.yaml"} {
		sm := floorModel(t, file)
		resident := sm.denseBytesGPU + sm.expertsPerGPU*sm.expertBytes*sm.moeLayers
		if sm.experts == 0 || sm.expertsPerGPU*sm.expertBytes*sm.moeLayers < 0.5*resident {
			t.Fatalf("%s: experts %.0f, resident %.1f GB: not a MoE whose experts dominate", file, sm.experts, resident/1e9)
		}
		last := 0.0
		for _, c := range []int{1, 4, 16, 64} {
			f := sm.FloorsAt(c, 2048)
			_, st := sm.DecodeAt(c, 2048)
			if f.WeightReadS > st.TotalS || f.WeightBytesPerGPU < last {
				t.Errorf("%s at %d: floor %.2f ms (%.1f GB) above the step %.2f ms, or below the smaller batch's %.1f GB",
					file, c, f.WeightReadS*1e3, f.WeightBytesPerGPU/1e9, st.TotalS*1e3, last/1e9)
			}
			last = f.WeightBytesPerGPU
		}
		if one := sm.FloorsAt(1, 2048).WeightBytesPerGPU; one > 0.5*resident {
			t.Errorf("%s: one sequence's floor reads %.1f of %.1f GB resident", file, one/1e9, resident/1e9)
		}
		if big := sm.FloorsAt(1<<16, 2048).WeightBytesPerGPU; big < 0.999*resident || big > resident*1.0001 {
			t.Errorf("%s: a huge batch's floor reads %.2f GB, want every resident weight, %.2f GB", file, big/1e9, resident/1e9)
		}
	}
	sm := floorModel(t, "llama-3.1-70b-8xa100.yaml")
	if a, b := sm.FloorsAt(1, 2048).WeightBytesPerGPU, sm.FloorsAt(256, 2048).WeightBytesPerGPU; a != b || a != sm.denseBytesGPU {
		t.Errorf("dense floor %.2f / %.2f GB, want the resident %.2f GB at any batch", a/1e9, b/1e9, sm.denseBytesGPU/1e9)
	}
}
