package vllm

import (
	"strings"
	"testing"
)

func TestPPKVCheckWholeModelSpan(t *testing.T) {
	for _, c := range []struct {
		v    string
		want Presence
	}{
		{"0.13.0", Absent},     // before #29431 (PR #33698: "since v0.14.0")
		{"0.14.0rc2", Present}, // vllm#32105 turn 0 traceback
		{"0.15.0rc1", Present}, // vllm#32105 banner
		{"0.15.0", Present},
		{"0.15.2rc1", Present}, // vllm#34076 wheel 0.15.2rc1.dev93
		{"0.16.0", Maybe},      // first release with #33698 unknown
		{"0.20.0", Maybe},
	} {
		r := Release{Version: mustVersion(c.v)}
		b := r.PPKVCheckWholeModel()
		if b.Presence != c.want {
			t.Errorf("%s: %v, want %v", c.v, b.Presence, c.want)
		}
		if b.FixRelease != "unknown" || b.FixPR != "#33698" || b.RegressionPR != "#29431" || !strings.Contains(b.Source, "#32105") {
			t.Errorf("%s: %+v", c.v, b)
		}
	}
}

// TestPPKVCheckFixReleaseUnread: the v0.16.0 tag commit is known
// (89a77b10846f, from 0.16.1.dev0+g89a77b108 builds) but its
// kv_cache_utils.py was not readable, so the fix release stays unknown and
// 0.16.0 is Maybe, not Absent; the source says which tag was tried.
func TestPPKVCheckFixReleaseUnread(t *testing.T) {
	if ppKVCheckFixRelease != "" {
		t.Fatalf("fix release %q set without a read of the tag's kv_cache_utils.py", ppKVCheckFixRelease)
	}
	b := Release{Version: mustVersion("0.16.0")}.PPKVCheckWholeModel()
	if b.Presence != Maybe || !strings.Contains(b.Source, "89a77b10846f") || !strings.Contains(b.Source, "not read") {
		t.Errorf("0.16.0: %v %q", b.Presence, b.Source)
	}
}
