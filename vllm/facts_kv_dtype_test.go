package vllm

import (
	"strings"
	"testing"
)

// TestCheckpointKVCache: a ModelOpt checkpoint's kv_cache_quant_algo FP8
// gives an FP8 KV cache without the flag from 0.14.0 (PR #29980's helpers in
// its API reference), not in 0.12.0 (absent there), unverified in 0.13.x.
func TestCheckpointKVCache(t *testing.T) {
	for v, want := range map[string]Presence{"0.11.0": Absent, "0.12.0": Absent, "0.13.0": Maybe, "0.14.0": Present, "0.20.0": Present} {
		r, _, err := ResolveString(v)
		if err != nil {
			t.Fatal(err)
		}
		c := r.CheckpointKVCache()
		if c.FP8WhenUnset != want {
			t.Errorf("%s: %v, want %v", v, c.FP8WhenUnset, want)
		}
		if !strings.Contains(c.Source, "PR #29980") || !strings.Contains(c.ExplicitAuto, "#34752") {
			t.Errorf("%s: source %q", v, c.Source)
		}
	}
}
