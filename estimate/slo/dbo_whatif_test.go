package slo

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/spec"
)

// TestWhatIfOffersDBOOnlyWhereVLLMRunsIt: the DeepEP + 400 Gbit/s variant
// adds DBO where the release has it (0.11.0 on the reference) and not
// before (0.10.2 has no --enable-dbo), so no alternative predicts an
// overlap vLLM would refuse.
func TestWhatIfOffersDBOOnlyWhereVLLMRunsIt(t *testing.T) {
	for _, tt := range []struct {
		version string
		dbo     bool
	}{{"0.11.0", true}, {"0.10.2", false}} {
		d, ds := spec.Load("../../examples/deepseek-v3-32xh20.yaml")
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		d.VLLM.Version, d.VLLM.All2AllBackend = tt.version, "allgather_reducescatter"
		spec.ApplyDefaults(d)
		in, ds := input.FromSpec(d)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		found := false
		for _, a := range alternativeInputs(&in) {
			if !strings.Contains(a.Name, "400 Gbit/s per GPU") {
				continue
			}
			found = true
			if strings.Contains(a.Name, "DBO") != tt.dbo || a.in.DBO() != tt.dbo {
				t.Errorf("vLLM %s: %q runs DBO %v, want %v", tt.version, a.Name, a.in.DBO(), tt.dbo)
			}
		}
		if !found {
			t.Errorf("vLLM %s: no DeepEP + 400 Gbit/s variant", tt.version)
		}
	}
}
