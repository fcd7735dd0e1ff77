package vllm

import "testing"

// TestCertainFlagAcrossChoiceEntries: a flag whose newest choice set is only
// confirmed from a later release is still certain in the releases before
// that, with the choices both entries allow (kv-cache-dtype fp8 on 0.11.0,
// where the 0.11.1 choice list is confirmed and the 0.10.x one ends).
func TestCertainFlagAcrossChoiceEntries(t *testing.T) {
	r, _, _ := ResolveString("0.11.0")
	f, ok := r.CertainFlag("kv-cache-dtype")
	if !ok {
		t.Fatal("--kv-cache-dtype is not certain on 0.11.0")
	}
	if !f.HasChoice("fp8") {
		t.Errorf("fp8 is not a certain choice on 0.11.0: %v", f.Choices)
	}
	if f.HasChoice("fp8_ds_mla") {
		t.Errorf("fp8_ds_mla is only confirmed from 0.11.1 but certain on 0.11.0: %v", f.Choices)
	}
	r, _, _ = ResolveString("0.11.1")
	if f, ok := r.CertainFlag("kv-cache-dtype"); !ok || !f.HasChoice("fp8_ds_mla") {
		t.Errorf("0.11.1: %v %v", f, ok)
	}
}

// TestFlagFirstSince names the first release of the flag's oldest entry, not
// of its newest choice list.
func TestFlagFirstSince(t *testing.T) {
	since, removed, ok := FlagFirstSince("kv-cache-dtype")
	if !ok || !removed.IsZero() || since.AtLeast(mustVersion("0.9.0")) {
		t.Errorf("kv-cache-dtype: since %s removed %s ok %v", since, removed, ok)
	}
}
