package vllm

import (
	"strings"
	"testing"
)

// TestSinkAttentionFA3Hopper: FlashAttention 3 runs sink models' attention
// on Hopper from gpt-oss's launch release (0.10.1) on; before it there is no
// sink model to run.
func TestSinkAttentionFA3Hopper(t *testing.T) {
	for _, tt := range []struct {
		version string
		want    Presence
	}{
		{"0.10.0", Absent},
		{"0.10.1", Present},
		{"0.15.1", Present},
		{"0.24.0", Present},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		got, src := r.SinkAttentionFA3Hopper()
		if got != tt.want {
			t.Errorf("%s: %s, want %s", tt.version, got, tt.want)
		}
		if !citesPrimary(src) || !strings.Contains(src, "vllm/platforms/cuda.py") {
			t.Errorf("%s: source %q cites no vLLM file", tt.version, src)
		}
	}
}
