package vllm

import (
	"strings"
	"testing"
)

// TestROCmMLABlock: on an AMD GPU a dense MLA model's backend follows
// AITER (vllm/platforms/rocm.py at the tags): qa44b F4, DeepSeek-V3 on
// MI300X at 0.22.1 with VLLM_ROCM_USE_AITER=1 and --block-size 1 runs
// ROCM_AITER_MLA (kernel sizes [MultipleOf(1)]) instead of being refused as
// TRITON_MLA's; 0.9.0-0.11.0's AITER MLA takes only 1.
func TestROCmMLABlock(t *testing.T) {
	for _, tt := range []struct {
		version string
		aiter   bool
		n       int
		action  UserBlockAction
		backend string
		why     string
	}{
		{"0.22.1", true, 1, UserBlockKept, MLAROCmAiter, "ROCM_AITER_MLA"},
		{"0.22.1", true, 0, UserBlockKept, MLAROCmAiter, ""},
		{"0.22.1", false, 1, UserBlockRefused, "", "No valid attention backend found for rocm"},
		{"0.22.1", false, 0, UserBlockKept, MLATriton, ""},
		{"0.18.0", false, 1, UserBlockRefused, "", "No common block size for 1."},
		{"0.18.0", true, 1, UserBlockKept, MLAROCmAiter, ""},
		{"0.14.0", false, 1, UserBlockKept, MLAROCmAiter, "even with AITER off"},
		{"0.14.0", true, 0, UserBlockKept, MLAROCmAiter, ""},
		{"0.10.0", true, 0, UserBlockRefused, "", "currently only supports block size 1"},
		{"0.10.0", true, 1, UserBlockKept, MLAROCmAiter, ""},
		{"0.10.0", false, 0, UserBlockKept, MLATriton, ""},
		{"0.11.1", true, 16, UserBlockKept, MLAROCmAiter, ""},
		{"0.26.0", false, 1, UserBlockRefused, "", "not read"},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		u, ok := r.ROCmMLABlock(tt.aiter, tt.n)
		if !ok || u.Action != tt.action || u.Backend != tt.backend || !strings.Contains(u.Why, tt.why) {
			t.Errorf("%s aiter=%v n=%d: ok %v, %v on %q (%s); want %v on %q with %q", tt.version, tt.aiter, tt.n, ok, u.Action, u.Backend, u.Why, tt.action, tt.backend, tt.why)
		}
	}
	r, _, _ := ResolveString("0.8.4")
	if _, ok := r.ROCmMLABlock(true, 1); ok {
		t.Error("0.8.4 runs TRITON_MLA on ROCm: its rule is MLAUserBlockSize's, not ROCmMLABlock's")
	}
}

// TestROCmAiterMLAOn: VLLM_ROCM_USE_AITER defaults off, VLLM_ROCM_USE_AITER_MLA on.
func TestROCmAiterMLAOn(t *testing.T) {
	for env, want := range map[string]bool{"": false, "1": true, "True": true, "yes": false} {
		if got := ROCmAiterMLAOn(map[string]string{"VLLM_ROCM_USE_AITER": env}); got != want {
			t.Errorf("VLLM_ROCM_USE_AITER=%q: %v, want %v", env, got, want)
		}
	}
	if ROCmAiterMLAOn(map[string]string{"VLLM_ROCM_USE_AITER": "1", "VLLM_ROCM_USE_AITER_MLA": "0"}) {
		t.Error("VLLM_ROCM_USE_AITER_MLA=0 turns AITER MLA off")
	}
}
