package vllm

import "testing"

// TestKVGroupsFromWholeModel: confirmed from 0.16.0 (the Step-3.5-Flash
// PP 5 log of a main nightly that became it), unknown before, never ruled
// out.
func TestKVGroupsFromWholeModel(t *testing.T) {
	for v, want := range map[string]Presence{"0.10.0": Maybe, "0.15.1": Maybe, "0.16.0": Present, "0.26.0": Present} {
		r, _, err := ResolveString(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, src := r.KVGroupsFromWholeModel(); got != want || src == "" {
			t.Errorf("%s: %v, want %v", v, got, want)
		}
	}
}
