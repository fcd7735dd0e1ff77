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
		{"0.13.0", Absent},     // v0.13.0 tag: no whole-model check
		{"0.14.0rc2", Present}, // vllm#32105 turn 0 traceback
		{"0.15.0rc1", Present}, // vllm#32105 banner
		{"0.15.0", Present},
		{"0.15.2rc1", Present}, // vllm#34076 wheel 0.15.2rc1.dev93
		{"0.16.0", Present},    // v0.16.0 tag (89a77b10): min(available_memory)
		{"0.16.1", Maybe},      // main's builds after the 0.16.0 tag: with or without c5a66d16
		{"0.17.0rc0", Absent},  // v0.17.0rc0 tag contains c5a66d16
		{"0.17.0", Absent},     // v0.17.0 tag (b31e9326): per worker
		{"0.20.0", Absent},
	} {
		r := Release{Version: mustVersion(c.v)}
		b := r.PPKVCheckWholeModel()
		if b.Presence != c.want {
			t.Errorf("%s: %v, want %v", c.v, b.Presence, c.want)
		}
		if b.FixRelease != "0.17.0" || b.FixPR != "#33698" || b.RegressionPR != "#29431" || b.ConfirmedSpan != "0.14.0–0.16.0" ||
			!strings.Contains(b.Source, "#32105") {
			t.Errorf("%s: %+v", c.v, b)
		}
	}
}

// TestPPKVCheckFixReleaseRead: the fix release is set only with the tags'
// reads cited: v0.16.0's commit and its min(available_memory) line, and
// v0.17.0's per-worker check.
func TestPPKVCheckFixReleaseRead(t *testing.T) {
	b := Release{Version: mustVersion("0.17.0")}.PPKVCheckWholeModel()
	for _, want := range []string{"89a77b10846f", "min(available_memory)", "b31e9326a7d9", "c5a66d16"} {
		if !strings.Contains(b.Source, want) {
			t.Errorf("source lacks %q: %q", want, b.Source)
		}
	}
}
