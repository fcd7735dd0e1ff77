package vllm

import "testing"

// TestDenseDPBalancedBlind: dense DP ranks publish their counts up to
// 0.13.x (every DP rank a DPEngineCoreProc) and none from 0.14.0 (PR
// #30739), read at the v0.13.0, v0.14.0 and v0.24.0 tags.
func TestDenseDPBalancedBlind(t *testing.T) {
	for v, want := range map[string]Presence{"0.11.0": Absent, "0.13.0": Absent, "0.14.0": Present, "0.15.0": Present, "0.24.0": Present} {
		r, _, err := ResolveString(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, src := r.DenseDPBalancedBlind(); got != want || src == "" {
			t.Errorf("%s: %v (%q), want %v", v, got, src, want)
		}
	}
}
