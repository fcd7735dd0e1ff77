package resolve

import (
	"strings"
	"testing"
)

// TestSinceNote: "added in" only for a pinned first release; a flag known
// only from the release a source first shows it in says "not before A;
// first seen in B", as lint does.
func TestSinceNote(t *testing.T) {
	for flag, want := range map[string]string{
		"enable-dbo":             " (added in 0.11.0)",
		"enable-expert-parallel": " (not before 0.8.0; first seen in 0.8.3)",
		"num-redundant-experts":  " (added in 0.9.1; removed in 0.12.0)",
		"no-such-flag":           "",
	} {
		if got := SinceNote(flag); got != want {
			t.Errorf("%s: %q, want %q", flag, got, want)
		}
	}
}

// TestMissingFlag: a release before the earliest possible one has no flag;
// a release between that and the first one seen cannot be verified, and is
// never told the flag was "added" before it.
func TestMissingFlag(t *testing.T) {
	for _, c := range []struct{ rel, flag, want string }{
		{"0.7.3", "enable-expert-parallel", "vLLM 0.7.3 has no --enable-expert-parallel (not before 0.8.0; first seen in 0.8.3)"},
		{"0.8.2", "enable-expert-parallel", "cannot verify that vLLM 0.8.2 has --enable-expert-parallel; first seen in 0.8.3 (its first release is not known)"},
		{"0.10.1", "enable-dbo", "vLLM 0.10.1 has no --enable-dbo (added in 0.11.0)"},
	} {
		if got := MissingFlag(release(t, c.rel), c.flag); got != c.want {
			t.Errorf("%s --%s:\n got %q\nwant %q", c.rel, c.flag, got, c.want)
		}
	}
}

// TestExpressibleSaysNotBefore: an EP layout on a release before
// --enable-expert-parallel's earliest possible one names that release as a
// bound, not as the release that added the flag.
func TestExpressibleSaysNotBefore(t *testing.T) {
	err := expressible(Layout{TP: 8, PP: 1, DP: 1, EP: true, Nodes: 1, GPUsPerNode: 8}, KindSingle, release(t, "0.7.3"))
	if err == nil || !strings.Contains(err.Error(), "(not before 0.8.0; first seen in 0.8.3)") || strings.Contains(err.Error(), "added in") {
		t.Errorf("EP on 0.7.3: %v", err)
	}
}
