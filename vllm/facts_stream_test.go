package vllm

import (
	"strings"
	"testing"
)

func TestFirstChunkAtFirstToken(t *testing.T) {
	for _, c := range []struct {
		version string
		want    Presence
	}{{"0.7.3", Absent}, {"0.8.0", Present}, {"0.11.0", Present}, {"0.20.1", Present}} {
		r, _, err := ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		got, src := r.FirstChunkAtFirstToken()
		if got != c.want || src == "" {
			t.Errorf("%s: FirstChunkAtFirstToken = %v (source %q), want %v", c.version, got, src, c.want)
		}
	}
}

func TestReasoningStreamsFirst(t *testing.T) {
	for _, c := range []struct {
		name      string
		modelType string
		args      []string
		want      bool
		what      string
	}{
		{"gpt-oss always (harmony)", "gpt_oss", nil, true, "harmony"},
		{"dense without a parser", "qwen3", []string{"--max-num-seqs", "8"}, false, ""},
		{"parser as two arguments", "qwen3", []string{"--reasoning-parser", "qwen3"}, true, "--reasoning-parser qwen3"},
		{"parser with =", "deepseek_v3", []string{"--reasoning-parser=deepseek_r1"}, true, "--reasoning-parser deepseek_r1"},
		{"last one wins", "qwen3", []string{"--reasoning-parser", "a", "--reasoning-parser=b"}, true, "--reasoning-parser b"},
		{"flag without a value", "qwen3", []string{"--reasoning-parser"}, false, ""},
		{"next flag is no value", "qwen3", []string{"--reasoning-parser", "--enforce-eager"}, false, ""},
		{"empty value", "qwen3", []string{"--reasoning-parser="}, false, ""},
	} {
		got, what, src := ReasoningStreamsFirst(c.modelType, c.args)
		if got != c.want || (got && (src == "" || !strings.Contains(what, c.what))) || (!got && (what != "" || src != "")) {
			t.Errorf("%s: ReasoningStreamsFirst = %v %q %q, want %v mentioning %q", c.name, got, what, src, c.want, c.what)
		}
	}
}

// FuzzReasoningStreamsFirst: any vllm.extra_args (user input, split at a
// NUL here) gives an answer without panicking, and a yes always names what
// streams first and its source.
func FuzzReasoningStreamsFirst(f *testing.F) {
	for _, s := range []string{"", "--reasoning-parser\x00qwen3", "--reasoning-parser=deepseek_r1", "--reasoning-parser", "--reasoning-parser\x00--x", "--reasoning-parser= "} {
		f.Add("qwen3", s)
		f.Add("gpt_oss", s)
	}
	f.Fuzz(func(t *testing.T, modelType, joined string) {
		var args []string
		if joined != "" {
			args = strings.Split(joined, "\x00")
		}
		first, what, src := ReasoningStreamsFirst(modelType, args)
		if first && (what == "" || src == "") {
			t.Fatalf("yes without what (%q) or source (%q)", what, src)
		}
		if !first && (what != "" || src != "") {
			t.Fatalf("no with what %q, source %q", what, src)
		}
	})
}
