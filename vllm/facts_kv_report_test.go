package vllm

import "testing"

// TestKVTokensAsConcurrency: the log's token count became max_concurrency ×
// max_model_len in 0.21.0 (issue #43308), not in 0.20.0, unpinned between.
func TestKVTokensAsConcurrency(t *testing.T) {
	for v, want := range map[string]Presence{"0.17.0": Absent, "0.20.0": Absent, "0.21.0": Present, "0.26.0": Present} {
		r, _, err := ResolveString(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, src := r.KVTokensAsConcurrency(); got != want || src == "" {
			t.Errorf("%s: %v, want %v", v, got, want)
		}
	}
}

// TestWindowReserveBatches: a sliding-window group reserves one chunk up to
// 0.19.0 (a Gemma 3 log), max_concurrent_batches chunks from 0.27.1 (async
// scheduling at PP 1: 2; without it: PP), and is not pinned between.
func TestWindowReserveBatches(t *testing.T) {
	for _, c := range []struct {
		v     string
		async bool
		pp    int
		want  int
		p     Presence
	}{
		{"0.19.0", true, 1, 1, Absent},
		{"0.20.0", true, 1, 1, Maybe},
		{"0.27.1", true, 1, 2, Present},
		{"0.31.0", true, 1, 2, Present},
		{"0.31.0", false, 1, 1, Present},
		{"0.31.0", false, 2, 2, Present},
		{"0.31.0", true, 4, 4, Present},
	} {
		r, _, err := ResolveString(c.v)
		if err != nil {
			t.Fatal(err)
		}
		n, p, src := r.WindowReserveBatches(c.async, c.pp)
		if n != c.want || p != c.p || src == "" {
			t.Errorf("%s async=%v PP%d: %d batches (%v), want %d (%v)", c.v, c.async, c.pp, n, p, c.want, c.p)
		}
	}
}
