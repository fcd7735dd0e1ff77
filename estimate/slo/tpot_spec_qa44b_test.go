package slo

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// qa44b F14: GLM-4.6 with MTP on 8 × H200, 2.57 tokens per sequence per
// step: check put TPOT 30.6 ms beside "the steady decode step alone is
// 33.6 ms", a step against a time per token. With speculative decoding
// the sentence gives the time per token (the step over its tokens); a
// step emitting one token keeps the step's wording.
func TestSteadyDecodeTextIsPerToken(t *testing.T) {
	mtp := perf.DecodeInfo{Point: perf.DecodePoint{TPOTS: 0.0336 / 2.57}, Step: perf.StepTime{TotalS: 0.0336}}
	got := steadyDecodeText(mtp)
	for _, want := range []string{"time per token is 13.1 ms", "33.6 ms step emitting 2.57 tokens"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "step alone") {
		t.Errorf("%q compares TPOT with the step", got)
	}
	plain := perf.DecodeInfo{Point: perf.DecodePoint{TPOTS: 0.0297}, Step: perf.StepTime{TotalS: 0.0297}}
	if got := steadyDecodeText(plain); !strings.Contains(got, "the steady decode step alone is 29.7 ms") {
		t.Errorf("one token per step: %q", got)
	}
}
