package vllm

import "testing"

// TestEmptyValueIsNone: an empty value means None for a number flag whose
// default is None, from 0.11.0 (optional_type); not for a flag with a
// default, nor before the confirmed release.
func TestEmptyValueIsNone(t *testing.T) {
	kv, ok := KnownFlagEver("kv-cache-memory-bytes")
	if !ok {
		t.Fatal("kv-cache-memory-bytes not in the table")
	}
	tp, ok := KnownFlagEver("tensor-parallel-size")
	if !ok {
		t.Fatal("tensor-parallel-size not in the table")
	}
	tests := []struct {
		rel  string
		f    *Flag
		want Presence
	}{
		{"0.22.1", kv, Present},
		{"0.11.0", kv, Present},
		{"0.22.1", tp, Absent}, // default 1: int("") fails
		{"0.10.1", &Flag{Name: "max-num-seqs", Kind: Int}, Absent},
	}
	for _, tt := range tests {
		r, _, err := ResolveString(tt.rel)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := r.EmptyValueIsNone(tt.f); got != tt.want {
			t.Errorf("%s %s: got %v, want %v", tt.rel, tt.f.Name, got, tt.want)
		}
	}
}
