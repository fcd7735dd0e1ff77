package vllm

import "testing"

// TestEncoderProfilePlaceholders: the padded encoder outputs are confirmed
// at 0.11.0 only; the releases around it are unpinned, never Absent (PR
// #30475's first release is not known).
func TestEncoderProfilePlaceholders(t *testing.T) {
	for _, c := range []struct {
		v string
		p Presence
	}{
		{"0.10.2", Maybe},
		{"0.11.0", Present},
		{"0.11.1", Maybe},
		{"0.31.0", Maybe},
	} {
		p, src := Release{Version: mustVersion(c.v)}.EncoderProfilePlaceholders()
		if p != c.p || src == "" {
			t.Errorf("%s: %v, want %v", c.v, p, c.p)
		}
	}
}
