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
