package pd

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/spec"
)

// The router kinds' paths: the vLLM router's 3 hops (to prefill, back, to
// decode); llm-d's 5 (the Gateway's ext-proc exchange with the endpoint
// picker, the Gateway to the decode pod's sidecar, the sidecar's prefill
// leg there and back; the decode leg over localhost is none).
func TestPathOf(t *testing.T) {
	for kind, want := range map[string]int{"": 3, spec.RouterKindVLLM: 3, spec.RouterKindLLMD: 5} {
		if got := PathOf(kind).Hops; got != want {
			t.Errorf("PathOf(%q).Hops = %d, want %d", kind, got, want)
		}
	}
	if PathOf("").Kind != spec.RouterKindVLLM {
		t.Errorf("the default path is %q, want the vLLM router's", PathOf("").Kind)
	}
}

// The same pools behind llm-d's router: TTFT's router part is 5 hops of
// the inter-node latency where the vLLM router's is 3, the bound's TTFT
// floor grows by the 2 extra hops exactly, and the notes name the path.
func TestLLMDRouterPath(t *testing.T) {
	d := testinput.ExampleSpec(t, pdExample)
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	pre, dec := testinput.Pools(t, in.Resolved())
	_, _, lat := interNode(&dec)
	if lat <= 0 {
		t.Fatalf("inter-node latency %v", lat)
	}
	v, _ := Evaluate(&pre, &dec, false, spec.RouterKindVLLM, slo.Options{Seed: 1})
	l, _ := Evaluate(&pre, &dec, false, spec.RouterKindLLMD, slo.Options{Seed: 1})
	if len(v.Scenarios) == 0 || len(v.Scenarios) != len(l.Scenarios) {
		t.Fatalf("scenarios: %d and %d", len(v.Scenarios), len(l.Scenarios))
	}
	for i := range v.Scenarios {
		a, b := v.Scenarios[i].TTFTParts.RouterS, l.Scenarios[i].TTFTParts.RouterS
		if math.Abs(a-3*lat) > 1e-12 || math.Abs(b-5*lat) > 1e-12 {
			t.Errorf("input %d: router part %g s (vLLM router), %g s (llm-d), want %g and %g", v.Scenarios[i].InputTokens, a, b, 3*lat, 5*lat)
		}
		if s := l.Scenarios[i]; math.Abs(s.TTFTParts.Sum()-s.TTFT.Mean) > 1e-9*s.TTFT.Mean {
			t.Errorf("input %d: llm-d's parts add up to %g s, TTFT mean %g s", s.InputTokens, s.TTFTParts.Sum(), s.TTFT.Mean)
		}
	}
	note := func(r Report) bool {
		for _, n := range r.Notes {
			if strings.Contains(n, "endpoint picker") {
				return true
			}
		}
		return false
	}
	if !note(l) || note(v) {
		t.Errorf("llm-d's path in the notes: llm-d %v, vLLM router %v; want only llm-d's", note(l), note(v))
	}
	bv, bl := Bounds(&pre, &dec, false, spec.RouterKindVLLM), Bounds(&pre, &dec, false, spec.RouterKindLLMD)
	for n, t0 := range bv.TTFTS {
		if got := bl.TTFTS[n] - t0; math.Abs(got-2*lat) > 1e-12 {
			t.Errorf("input %d: llm-d's TTFT floor is %g s above the vLLM router's, want 2 hops (%g s)", n, got, 2*lat)
		}
	}
}
