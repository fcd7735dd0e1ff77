package vllm

import "testing"

// TestMamba2StatePages: a Mamba-2 hybrid keeps one state page per group
// through 0.19.1 (the cited log), a Gated DeltaNet hybrid two from 0.17.0;
// after 0.19.1 the Mamba-2 answer is the general rule, never certain.
func TestMamba2StatePages(t *testing.T) {
	for _, c := range []struct {
		v      string
		mamba2 bool
		pages  int
		p      Presence
	}{
		{"0.13.0", true, 1, Absent},
		{"0.19.1", true, 1, Absent},
		{"0.19.1", false, 2, Present},
		{"0.20.0", true, 2, Maybe},
		{"0.17.0", false, 2, Present},
	} {
		r := Release{Version: mustVersion(c.v)}
		n, p, src := r.StatePagesPerRequestFor(c.mamba2)
		if n != c.pages || p != c.p || src == "" {
			t.Errorf("%s mamba2=%v: %d pages (%v), want %d (%v)", c.v, c.mamba2, n, p, c.pages, c.p)
		}
	}
}
