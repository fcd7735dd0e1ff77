package vllm

import "testing"

// TestSlidingWindowInFlight: from 0.26.0 a sliding-window group reserves
// every batch in flight (two with async scheduling at PP 1, the PP size
// otherwise); before, one batch.
func TestSlidingWindowInFlight(t *testing.T) {
	for _, c := range []struct {
		version string
		batched int
		async   bool
		pp      int
		want    int
		p       Presence
	}{
		{"0.25.1", 8192, true, 1, 8192, Absent},
		{"0.21.0", 2048, false, 4, 2048, Absent},
		{"0.26.0", 8192, true, 1, 16384, Present},
		{"0.26.0", 8192, false, 1, 8192, Present},
		{"0.27.1", 4096, false, 4, 16384, Present},
		{"0.31.0", 8192, true, 1, 16384, Maybe},
		{"0.26.0", 0, true, 0, 2, Present},
	} {
		r, _, err := ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		got, p, src := r.SlidingWindowInFlight(c.batched, c.async, c.pp)
		if got != c.want || p != c.p || src == "" {
			t.Errorf("%s batched %d async %v pp %d: %d (%v), want %d (%v)", c.version, c.batched, c.async, c.pp, got, p, c.want, c.p)
		}
	}
}
