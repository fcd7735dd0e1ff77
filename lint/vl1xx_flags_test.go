package lint

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestOtherWord: a flag that differs from a known one in a whole short
// word is another flag, not a misspelling.
func TestOtherWord(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"ec-transfer-config", "kv-transfer-config", true},
		{"tensor-paralel-size", "tensor-parallel-size", false},
		{"max-model-length", "max-model-len", false},
		{"max-num-seq", "max-num-seqs", false},
	}
	for _, tt := range tests {
		if got := otherWord(tt.a, tt.b); got != tt.want {
			t.Errorf("otherWord(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestNextToFirstRelease: a backend newer than the release is only a
// warning on the table's last release before its earliest possible first
// release (builds from main between the two may take it).
func TestNextToFirstRelease(t *testing.T) {
	for _, tt := range []struct {
		v, backend string
		want       bool
	}{
		// choices45: deepep_v2 is pinned at 0.24.0 by the tags, so no release
		// before it is "next to" an unverified first release; pplx
		// (VLLM_ALL2ALL_BACKEND from 0.9.0, first confirmed 0.11.0) still is.
		{"0.8.5", vllm.BackendPPLX, true},
		{"0.8.4", vllm.BackendPPLX, false},
		{"0.23.0", "deepep_v2", false},
		{"0.22.1", "deepep_v2", false},
		{"0.28.0", "deepep_v2", false},                        // the release has it
		{"0.10.2", vllm.BackendAllgatherReducescatter, false}, // first release pinned (0.11.0)
		{"0.22.1", "no-such-backend", false},
	} {
		r, _, err := vllm.ResolveString(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if got := nextToFirstRelease(r, tt.backend); got != tt.want {
			t.Errorf("%s %s: %v, want %v", tt.v, tt.backend, got, tt.want)
		}
	}
}
