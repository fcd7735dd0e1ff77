package vllm

import (
	"strings"
	"testing"
)

// An AMD GPU of 160 GiB or more from 0.29.0 gets the earlier batch defaults
// with a note that they are unverified (qa42: MI355X's 8192 was stated as
// vLLM 0.31.0's default); NVIDIA GPUs, smaller AMD GPUs and 0.28.x (read)
// get none.
func TestBatchDefaultsUnverified(t *testing.T) {
	for _, tc := range []struct {
		version, gpu string
		mem          float64
		unverified   bool
	}{
		{"0.31.0", "AMD Instinct MI355X", 288, true},
		{"0.29.0", "AMD Instinct MI300X", 192, true},
		{"0.28.0", "AMD Instinct MI300X", 192, false},
		{"0.31.0", "NVIDIA B200", 178, false},
		{"0.31.0", "AMD Instinct MI210", 64, false},
	} {
		r, err := Resolve(mustVersion(tc.version))
		if err != nil {
			t.Fatal(err)
		}
		got := r.BatchDefaultsUnverified(tc.gpu, tc.mem)
		if (got != "") != tc.unverified || tc.unverified && !strings.Contains(got, "#54043") {
			t.Errorf("%s on %s: %q, want unverified %v", tc.gpu, tc.version, got, tc.unverified)
		}
	}
}
