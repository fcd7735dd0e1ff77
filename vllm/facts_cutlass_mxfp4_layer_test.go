package vllm

import (
	"strings"
	"testing"
)

// CutlassExpertsMxfp4's per-call tensors: read at 0.20.0–0.24.x (and the
// 0.23.1rc1 build 58d6a6e60), absent before 0.20.0, unread after.
func TestCutlassMXFP4Layer(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want Presence
	}{
		{"0.19.0", Absent},
		{"0.20.0", Present},
		{"0.23.1rc1", Present},
		{"0.24.0", Present},
		{"0.25.0", Maybe},
		{"0.28.0", Maybe},
	} {
		p, src := Release{Version: mustVersion(tc.v)}.CutlassMXFP4Layer()
		if p != tc.want {
			t.Errorf("%s: %v, want %v", tc.v, p, tc.want)
		}
		if !strings.Contains(src, "shuffle_rows") || !strings.Contains(src, "58d6a6e60") {
			t.Errorf("%s: source %q", tc.v, src)
		}
	}
}
