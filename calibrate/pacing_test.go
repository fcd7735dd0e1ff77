package calibrate

import (
	"testing"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// TestReplayPacing: a finite open loop is replayed paced as vLLM's bench
// serve paces it (sim.Config.ClientPacing) when the result is that
// client's (or benchmark_serving.py's, which imports its get_request from
// v0.10.0); another client's, a burst and a closed loop are not paced.
func TestReplayPacing(t *testing.T) {
	in := input.FromResolved(gpustackCluster(t))
	shape := bench.Shape{InputTokens: 1000, OutputTokens: 200}
	poisson := bench.Load{Kind: bench.LoadPoisson, RatePerS: 3, Prompts: 800}
	capped := bench.Load{Kind: bench.LoadCapped, RatePerS: 3, Concurrency: 16, Prompts: 800}
	for _, c := range []struct {
		format bench.Format
		load   bench.Load
		want   bool
	}{
		{bench.FormatVLLM, poisson, true},
		{bench.FormatVLLMScript, poisson, true},
		{bench.FormatVLLM, capped, true},
		{bench.FormatSGLang, poisson, false},
		{bench.FormatGuideLLM, poisson, false},
		{bench.FormatVLLM, bench.Load{Kind: bench.LoadBurst, Prompts: 500}, false},
		{bench.FormatVLLM, bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 4, Prompts: 100}, false},
	} {
		p, err := newReplay(in, &bench.Result{Format: c.format, Load: c.load, Shape: shape})
		if err != nil {
			t.Fatalf("%s %s: %v", c.format, c.load, err)
		}
		if p.cfg.ClientPacing != c.want {
			t.Errorf("%s, %s: paced %v, want %v", c.format, c.load, p.cfg.ClientPacing, c.want)
		}
	}
}
