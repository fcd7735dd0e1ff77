package memory

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestVLLMRulesNote pins point 10 of the reference scenario: TP > 1 with EP
// is allowed, and the backend mechanism and list follow the release.
func TestVLLMRulesNote(t *testing.T) {
	tests := []struct {
		version      string
		want, absent []string
	}{
		{"0.11.0", []string{"no rule fixing TP to 1", "with VLLM_ALL2ALL_BACKEND", "pplx exists in this release"}, []string{"falls back"}},
		{"0.22.1", []string{"with --all2all-backend", "accepts naive and pplx but has removed them"}, []string{"VLLM_ALL2ALL_BACKEND"}},
	}
	for _, tt := range tests {
		in, ds := input.Quick(resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", DP: 16, EP: true, MaxModelLen: 4096, VLLMVersion: tt.version})
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		n, ok := vllmRulesNote(&in)
		if !ok {
			t.Fatalf("%s: no note", tt.version)
		}
		for _, w := range tt.want {
			if !strings.Contains(n.Text, w) {
				t.Errorf("%s: note lacks %q: %s", tt.version, w, n.Text)
			}
		}
		for _, a := range tt.absent {
			if strings.Contains(n.Text, a) {
				t.Errorf("%s: note should not say %q: %s", tt.version, a, n.Text)
			}
		}
	}
	dense, _ := input.Quick(resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100", TP: 1, PP: 1, DP: 1, MaxModelLen: 4096})
	if _, ok := vllmRulesNote(&dense); ok {
		t.Error("a dense model gets no EP rules note")
	}
}
