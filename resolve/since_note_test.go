package resolve

import (
	"strings"
	"testing"
)

// TestSinceNote: "added in" only for a pinned first release (a flag known
// only from the release a source first shows it in says "not before A;
// first seen in B", as lint does: since flagspans45 pinned every flag's
// first release up to 0.24.0 at the tags, no flag vlaunch knows takes that
// path today; vllm's TestFlagSpan keeps the rule).
func TestSinceNote(t *testing.T) {
	for flag, want := range map[string]string{
		"enable-dbo":             " (added in 0.11.0)",
		"enable-expert-parallel": " (added in 0.8.0)",                    // read at the v0.7.3 and v0.8.0 tags
		"num-redundant-experts":  " (added in 0.9.2; removed in 0.12.0)", // read at the v0.9.1 and v0.9.2 tags
		"no-such-flag":           "",
	} {
		if got := SinceNote(flag); got != want {
			t.Errorf("%s: %q, want %q", flag, got, want)
		}
	}
}

// TestMissingFlag: a release before the flag's first release has no flag
// (--enable-expert-parallel pinned at 0.8.0 by reading the tags).
func TestMissingFlag(t *testing.T) {
	for _, c := range []struct{ rel, flag, want string }{
		{"0.7.3", "enable-expert-parallel", "vLLM 0.7.3 has no --enable-expert-parallel (added in 0.8.0)"},
		{"0.10.1", "enable-dbo", "vLLM 0.10.1 has no --enable-dbo (added in 0.11.0)"},
	} {
		if got := MissingFlag(release(t, c.rel), c.flag); got != c.want {
			t.Errorf("%s --%s:\n got %q\nwant %q", c.rel, c.flag, got, c.want)
		}
	}
}

// TestExpressibleSaysNotBefore: an EP layout on a release before
// --enable-expert-parallel's first release names that release (pinned at
// 0.8.0 by the tags, so "added in", not a "not before" bound).
func TestExpressibleSaysNotBefore(t *testing.T) {
	err := expressible(Layout{TP: 8, PP: 1, DP: 1, EP: true, Nodes: 1, GPUsPerNode: 8}, KindSingle, release(t, "0.7.3"))
	if err == nil || !strings.Contains(err.Error(), "(added in 0.8.0)") || strings.Contains(err.Error(), "first seen") {
		t.Errorf("EP on 0.7.3: %v", err)
	}
}
