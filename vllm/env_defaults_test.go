package vllm

import (
	"strings"
	"testing"
)

func TestEnvDefaultByRelease(t *testing.T) {
	tests := []struct {
		version, name, want string
		ok                  bool
	}{
		{"0.10.2", "VLLM_USE_DEEP_GEMM", "0", true},
		{"0.11.0", "VLLM_USE_DEEP_GEMM", "1", true},
		{"0.22.1", "VLLM_USE_DEEP_GEMM", "1", true},
		{"0.10.1", "VLLM_MOE_DP_CHUNK_SIZE", "256", true},
		{"0.11.0", "VLLM_DEEPEP_BUFFER_SIZE_MB", "1024", true}, // configurable from 0.12.0 in the table
		{"0.22.1", "VLLM_FUSED_MOE_CHUNK_SIZE", "32768", true},
		{"0.22.1", "NO_SUCH_VARIABLE", "", false},
	}
	for _, tt := range tests {
		got, ok := rel(t, tt.version).EnvDefault(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s %s = %q, %v; want %q, %v", tt.version, tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// TestEnvDefaultProseAgrees ties the env table's one-line Default to the
// release table: for a variable whose default changed, the prose must name
// every value and the release each one starts in, so the two cannot drift.
func TestEnvDefaultProseAgrees(t *testing.T) {
	for _, d := range envDefaultTable {
		e, ok := KnownEnvEver(d.Name)
		if !ok {
			continue
		}
		if !strings.Contains(e.Default, d.Value) {
			t.Errorf("%s: env table default %q does not mention %q", d.Name, e.Default, d.Value)
		}
		if !d.Since.IsZero() && !strings.Contains(e.Default, d.Since.String()) {
			t.Errorf("%s: env table default %q does not name the release %s where the default becomes %q", d.Name, e.Default, d.Since, d.Value)
		}
	}
}
