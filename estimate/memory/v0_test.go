package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/spec"
)

// TestNoFusedMoEWorkspaceOnV0: the V0 engine (the default before 0.8.0,
// vllm.EngineEra) profiles no shared fused-MoE workspace; V1 does.
func TestNoFusedMoEWorkspaceOnV0(t *testing.T) {
	for _, tt := range []struct {
		version   string
		workspace bool
	}{{"0.7.3", false}, {"0.8.0", true}} {
		d, ds := spec.Load("../../examples/qwen3-30b-a3b-1xh100.yaml")
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		d.VLLM.Version = tt.version
		spec.ApplyDefaults(d)
		in, ds := input.FromSpec(d)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		r := Estimate(&in)
		if got := r.Stages[0].Activation.MoEWorkspaceGiB > 0; got != tt.workspace {
			t.Errorf("vLLM %s: fused-MoE workspace %.2f GiB, want one: %v", tt.version, r.Stages[0].Activation.MoEWorkspaceGiB, tt.workspace)
		}
	}
}
