package slo

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// A deployment whose chat output starts with reasoning outside `content`
// (gpt-oss's harmony channels; a --reasoning-parser in vllm.extra_args) gets
// the note saying that content-timed clients see TTFT plus the reasoning;
// one without gets none.
func TestReasoningTTFTNote(t *testing.T) {
	const ex = "../../examples/qwen3-30b-a3b-1xh100.yaml"
	cases := []struct {
		name string
		edit func(*spec.Deployment)
		want string // "" = no note
	}{
		{"no parser", nil, ""},
		{"reasoning parser", func(d *spec.Deployment) { d.VLLM.ExtraArgs = []string{"--reasoning-parser", "qwen3"} }, "--reasoning-parser qwen3"},
		{"parser with =", func(d *spec.Deployment) { d.VLLM.ExtraArgs = []string{"--reasoning-parser=qwen3"} }, "--reasoning-parser qwen3"},
		{"gpt-oss", func(d *spec.Deployment) { d.Model.Name = "gpt-oss-20b" }, "harmony analysis channel"},
	}
	for _, c := range cases {
		in := adviceInput(t, ex, c.edit)
		got := reasoningTTFTNote(&in)
		if c.want == "" {
			if got != "" {
				t.Errorf("%s: unexpected note %q", c.name, got)
			}
			continue
		}
		for _, w := range []string{c.want, "first generated token", "vllm bench serve", "one TPOT per reasoning token"} {
			if !strings.Contains(got, w) {
				t.Errorf("%s: note %q lacks %q", c.name, got, w)
			}
		}
	}
}

// Check's performance notes carry it (the report prints Performance.Notes).
func TestReasoningTTFTNoteInPrediction(t *testing.T) {
	in := adviceInput(t, "../../examples/qwen3-30b-a3b-1xh100.yaml", func(d *spec.Deployment) {
		d.VLLM.ExtraArgs = []string{"--reasoning-parser", "qwen3"}
	})
	r := runPerf(t, in)
	if !strings.Contains(strings.Join(r.Performance.Notes, "\n"), "one TPOT per reasoning token") {
		t.Fatalf("no reasoning note in %q", r.Performance.Notes)
	}
}
