package vllm

import "testing"

// TestDCPFacts: the flag from 0.10.2 (release notes, PR #23734), GQA from
// 0.11.1 (PR #24864, merged after 0.11.0), and vLLM's layout rules: TP a
// multiple of dcp; GQA needs TP > KV heads and dcp ≤ TP / KV heads
// (Qwen3-235B's 4 KV heads at TP 8: dcp ≤ 2; MiniMax's 8 at TP 4: none).
func TestDCPFacts(t *testing.T) {
	for _, c := range []struct {
		v        string
		flag, gq Presence
	}{{"0.10.1", Absent, Absent}, {"0.10.2", Maybe, Absent}, {"0.11.0", Present, Absent}, {"0.11.1", Present, Present}, {"0.20.0", Present, Present}} {
		r, _, err := ResolveString(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if d := r.DCP(); d.Flag != c.flag || d.GQA != c.gq {
			t.Errorf("%s: flag %v GQA %v, want %v %v", c.v, d.Flag, d.GQA, c.flag, c.gq)
		}
		if _, ok := r.Flag(DCPFlag); ok != (c.flag != Absent) {
			t.Errorf("%s: flag table has --%s = %t, Release.DCP says %v", c.v, DCPFlag, ok, c.flag)
		}
	}
	for _, c := range []struct {
		tp, dcp, kv int
		mla, ok     bool
	}{
		{8, 8, 1, true, true}, {8, 4, 1, true, true}, {8, 3, 1, true, false}, {16, 16, 1, true, true}, {4, 8, 1, true, false},
		{8, 2, 4, false, true}, {8, 4, 4, false, false}, {4, 2, 8, false, false}, {8, 2, 8, false, false}, {16, 2, 8, false, true}, {8, 1, 8, false, true},
	} {
		if got := DCPFits(c.tp, c.dcp, c.kv, c.mla); got != c.ok {
			t.Errorf("DCPFits(tp %d, dcp %d, kv heads %d, mla %t) = %t, want %t", c.tp, c.dcp, c.kv, c.mla, got, c.ok)
		}
	}
}
