package memory

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestSlidingWindowInFlightNote: the KV note says what a sliding-window
// layer keeps beside its window as the release does: one prefill chunk up
// to 0.25.1; from 0.26.0 two batches with async scheduling (the whole
// 16,384-token request here), and two with pipeline parallelism where
// async scheduling is off by default; beyond 0.27.1, the last release read,
// it says the rule is assumed.
func TestSlidingWindowInFlightNote(t *testing.T) {
	m, err := calConfig("../../catalog/testdata/hf/gemma-4-31b-it-nvfp4.verbatim.json", true)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("b300")
	for _, c := range []struct {
		version  string
		pp       int
		inFlight int
		want     []string
		not      []string
	}{
		{"0.25.1", 1, 8192, []string{"one prefill chunk (max_num_batched_tokens 8,192)"}, []string{"in flight", "assumed"}},
		{"0.26.0", 1, 16384, []string{"16,384 tokens of the 2 batches", "is the whole request"}, []string{"assumed"}},
		{"0.27.1", 2, 16384, []string{"16,384 tokens of the 2 batches"}, []string{"assumed"}},
		{"0.31.0", 1, 16384, []string{"16,384 tokens of the 2 batches", "assumed for this release"}, nil},
	} {
		in := &input.Input{Model: m, GPU: g, VLLMVersion: c.version, Layout: input.Layout{TP: 1, PP: c.pp, DP: 1, Nodes: 1, GPUsPerNode: 8}}
		util, batched := 0.92, 8192
		if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 16384, MaxNumBatchedTokens: &batched}); ds.HasErrors() {
			t.Fatal(ds)
		}
		if got := inFlightTokens(in); got != c.inFlight {
			t.Errorf("%s PP %d: %d tokens in flight, want %d", c.version, c.pp, got, c.inFlight)
		}
		text := inFlightText(in)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s PP %d: %q lacks %q", c.version, c.pp, text, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(text, w) {
				t.Errorf("%s PP %d: %q has %q", c.version, c.pp, text, w)
			}
		}
	}
}
