package replay

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// A TTFT is outside the model only when it was timed after the model's
// reasoning: a content-timed client on vLLM's chat endpoint with a model
// whose reasoning streams first. The same row timed at the first chunk
// (vllm bench serve), on the completions endpoint, or without a reasoning
// parser keeps its TTFT; throughput and TPOT are never touched.
func TestTTFTAfterReasoning(t *testing.T) {
	set, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	var base published.Row
	for _, r := range set.Rows {
		if r.ID == "gs-qwen3-8b-h100-vllm-tp1-sharegpt-c1" {
			base = r
		}
	}
	if base.ID == "" {
		t.Fatal("row gs-qwen3-8b-h100-vllm-tp1-sharegpt-c1 not found")
	}
	if base.Workload.Client != "vllm-bench-serve" || base.Workload.API != published.APIChat {
		t.Fatalf("the GPUStack row's client is %q on %q, want vllm-bench-serve on chat", base.Workload.Client, base.Workload.API)
	}
	cases := []struct {
		name, client, api, flags string
		want                     bool
	}{
		{"as published: vllm bench serve, no parser", "vllm-bench-serve", "chat", "vllm serve Qwen/Qwen3-8B", false},
		{"first-chunk client behind a parser", "vllm-bench-serve", "chat", "vllm serve Qwen/Qwen3-8B --reasoning-parser qwen3", false},
		{"content client without a parser", "sglang-bench-serving", "chat", "vllm serve Qwen/Qwen3-8B", false},
		{"content client on completions", "genai-perf", "completions", "vllm serve Qwen/Qwen3-8B --reasoning-parser qwen3", false},
		{"content client, chat, parser", "genai-perf", "chat", "vllm serve Qwen/Qwen3-8B --reasoning-parser qwen3", true},
		{"client not recorded", "", "chat", "vllm serve Qwen/Qwen3-8B --reasoning-parser qwen3", false},
	}
	for _, c := range cases {
		r := base
		r.Workload.Client, r.Workload.API, r.Engine.Flags = c.client, c.api, c.flags
		if got := ttftAfterReasoning(r); got != c.want {
			t.Errorf("%s: ttftAfterReasoning = %v, want %v", c.name, got, c.want)
		}
		ts, err := Reproduce(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var ttft, other int
		for _, x := range ts {
			_, ex := Excluded(x, x.Engine)
			x2 := x
			x2.TTFTAfterReasoning = false
			_, exBefore := Excluded(x2, x2.Engine)
			switch {
			case x.Regime == RegimeTTFTMean || x.Regime == RegimeTTFTP99:
				ttft++
				if ex != (c.want || exBefore) {
					t.Errorf("%s: %s excluded %v, want %v", c.name, x.Metric, ex, c.want || exBefore)
				}
			default:
				other++
				if ex != exBefore {
					t.Errorf("%s: %s exclusion changed by the client", c.name, x.Metric)
				}
			}
		}
		if ttft == 0 || other == 0 {
			t.Fatalf("%s: %d TTFT and %d other targets", c.name, ttft, other)
		}
	}
}

// The published gpt-oss rows timed by vllm bench serve on vLLM's chat
// endpoint keep their TTFT: gpt-oss's reasoning streams first, but that
// client stops at the role chunk vLLM sends with the first token.
func TestFirstChunkClientKeepsReasoningModelsTTFT(t *testing.T) {
	set, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range set.Rows {
		if r.Workload.Client != "vllm-bench-serve" || r.Model.Catalog == "" || r.Engine.Name != "vllm" {
			continue
		}
		if strings.HasPrefix(r.Model.Catalog, "gpt-oss") && r.Workload.API == published.APIChat {
			n++
		}
		if ttftAfterReasoning(r) {
			t.Errorf("row %s: a first-chunk client's TTFT marked as timed after reasoning", r.ID)
		}
	}
	if n == 0 {
		t.Fatal("no gpt-oss row on vLLM's chat endpoint timed by vllm bench serve: the case this test is for is gone")
	}
}
