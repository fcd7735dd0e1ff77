package slo

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// A MoE deployment with DP > 1 on a release whose DP-wave run-ahead was not
// read gets the note that the simulation counts none; a release read (0.11.0,
// 0.19.0), async scheduling off on 0.15.0 (one, read from 0.12.0) and a
// deployment without DP waves (DP 1) get none.
func TestDPWaveNote(t *testing.T) {
	const ex = "../../examples/deepseek-v3-32xh20.yaml" // DeepSeek-V3, DP 32, vLLM 0.11.0
	cases := []struct {
		name string
		edit func(*spec.Deployment)
		want bool
	}{
		{"0.11.0 read", nil, false},
		{"0.19.0 read", func(d *spec.Deployment) { d.VLLM.Version = "0.19.0" }, false},
		{"0.15.0 async unknown", func(d *spec.Deployment) { d.VLLM.Version = "0.15.0" }, true},
		{"0.15.0 sync read", func(d *spec.Deployment) {
			d.VLLM.Version = "0.15.0"
			d.VLLM.ExtraArgs = append(d.VLLM.ExtraArgs, "--no-async-scheduling")
		}, false},
		{"0.11.2 unknown", func(d *spec.Deployment) { d.VLLM.Version = "0.11.2" }, true},
	}
	for _, c := range cases {
		in := adviceInput(t, ex, c.edit)
		got := dpWaveNote(&in)
		if (got != "") != c.want {
			t.Errorf("%s (vLLM %s): note %q, want one: %v", c.name, in.VLLMVersion, got, c.want)
		}
		if c.want && !strings.Contains(got, "counts none") {
			t.Errorf("%s: note %q does not say what the simulation assumes", c.name, got)
		}
	}
	in := adviceInput(t, ex, func(d *spec.Deployment) { d.VLLM.Version = "0.15.0" })
	in.Layout.DP = 1
	if got := dpWaveNote(&in); got != "" {
		t.Errorf("DP 1 (no waves): unexpected note %q", got)
	}
}
