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
