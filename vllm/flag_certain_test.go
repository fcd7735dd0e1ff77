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

// TestFlagSpan: a flag whose first release is pinned has no Confirmed; one
// known only from the release a source first shows it in keeps both; the
// span starts at the flag's oldest entry, not its newest choice list
// (kv-cache-dtype).
func TestFlagSpan(t *testing.T) {
	for _, c := range []struct{ flag, since, seen, removed string }{
		{"enable-dbo", "0.11.0", "0.0.0", "0.0.0"},
		{"enable-expert-parallel", "0.8.0", "0.0.0", "0.0.0"}, // the v0.8.0 tag has it (flagspans45)
		{"data-parallel-backend", "0.9.1", "0.0.0", "0.0.0"},
		{"moe-backend", "0.17.0", "0.0.0", "0.0.0"},
		{"additional-config", "0.7.3", "0.0.0", "0.0.0"},
		{"nnodes", "0.11.1", "0.0.0", "0.0.0"},
		{"num-redundant-experts", "0.9.2", "0.0.0", "0.12.0"}, // first in arg_utils.py at the v0.9.2 tag (flagspans45)
		{"kv-cache-dtype", vPre.String(), "0.0.0", "0.0.0"},
	} {
		s, ok := FlagSpan(c.flag)
		if !ok || s.Since.String() != c.since || s.Confirmed.String() != c.seen || s.Removed.String() != c.removed {
			t.Errorf("%s: %+v %v, want since %s seen %s removed %s", c.flag, s, ok, c.since, c.seen, c.removed)
		}
	}
	if _, ok := FlagSpan("no-such-flag"); ok {
		t.Error("no-such-flag has a span")
	}
}
