package slo

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// TestApplyEngineChatTemplate: check charges the release's per-request
// chat-template parse to a chat workload (the default) on vLLM 0.11.0, and
// not on the completions endpoint, on a release that caches it, or for
// gpt-oss (harmony, no template); the front end's other costs stay.
func TestApplyEngineChatTemplate(t *testing.T) {
	eff := perf.DefaultEfficiency
	for _, c := range []struct {
		name, model, version, api string
		want                      float64
	}{
		{"chat by default on 0.11.0", "llama-3.1-8b", "0.11.0", "", eff.FrontendChatTemplateS},
		{"chat named on 0.11.0", "llama-3.1-8b", "0.11.0", spec.APIChat, eff.FrontendChatTemplateS},
		{"completions on 0.11.0", "llama-3.1-8b", "0.11.0", spec.APICompletions, 0},
		{"chat on 0.11.1 (cached)", "llama-3.1-8b", "0.11.1", "", 0},
		{"chat on 0.10.2 (before the filter)", "llama-3.1-8b", "0.10.2", "", 0},
		{"gpt-oss on 0.11.0 (harmony)", "gpt-oss-20b", "0.11.0", "", 0},
	} {
		in, ds := input.Quick(resolve.QuickOptions{Model: c.model, GPU: "h100-sxm", TP: 1, DP: 1, MaxModelLen: 8192, VLLMVersion: c.version})
		if ds.HasErrors() {
			t.Fatal(c.name, ds)
		}
		in.Workload = spec.Workload{Concurrency: 4, MaxModelLen: 8192, InputTokens: 256, OutputTokens: 64, API: c.api}
		var cfg sim.Config
		ApplyEngine(&in, eff, &cfg)
		if cfg.Frontend.ChatTemplateS != c.want || cfg.Frontend.RequestS != eff.FrontendRequestS {
			t.Errorf("%s: front end %+v, want ChatTemplateS %g beside RequestS %g", c.name, cfg.Frontend, c.want, eff.FrontendRequestS)
		}
	}
}

// The parse runs in the API server that took the request, like the rest of
// its ingest: the reference's api_server_count 8 divides it as it divides
// RequestS (the simulation's front end is one queue doing their work in
// parallel), 14 ms -> 1.75 ms.
func TestApplyEngineChatTemplateAPIServers(t *testing.T) {
	in := perfRefInput(t, "bf16")
	eff := perf.DefaultEfficiency
	var cfg sim.Config
	ApplyEngine(&in, eff, &cfg)
	const n = 8 // examples/deepseek-v3-32xh20.yaml: vllm.api_server_count
	if fe := cfg.Frontend; fe.ChatTemplateS != eff.FrontendChatTemplateS/n || fe.RequestS != eff.FrontendRequestS/n {
		t.Errorf("front end %+v, want ChatTemplateS %g and RequestS %g (each over %d API servers)", fe, eff.FrontendChatTemplateS/n, eff.FrontendRequestS/n, n)
	}
}
