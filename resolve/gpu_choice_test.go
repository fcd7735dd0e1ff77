package resolve

import (
	"strings"
	"testing"
)

// TestGPUAliasSetting (qa44b F12): "h100" is assumed to be the SXM part,
// and the provenance names the PCIe part's figures; an id is no choice.
func TestGPUAliasSetting(t *testing.T) {
	s, ok := GPUAliasSetting("h100")
	if !ok || s.Value != "h100-sxm" || s.From != SourceAssumed {
		t.Fatalf("h100: %+v %v, want h100-sxm, assumed", s, ok)
	}
	for _, want := range []string{"3350 GB/s HBM", "h100-pcie (NVIDIA H100 PCIe", "2000 GB/s HBM", "pcie 64 GB/s"} {
		if !strings.Contains(s.Why, want) {
			t.Errorf("why %q lacks %q", s.Why, want)
		}
	}
	if _, ok := GPUAliasSetting("h100-sxm"); ok {
		t.Error("h100-sxm: reported as an alias choice")
	}
}
