package search

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// autoAt is the 2 × 8 H200 example with parallelism: auto on release v.
func autoAt(t *testing.T, v string) input.Input {
	t.Helper()
	d, ds := spec.Load("../../examples/deepseek-v3-fp8-2x8h200.yaml")
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	d.Parallelism = spec.Parallelism{Auto: true}
	d.VLLM.Version, d.VLLM.APIServerCount = v, nil
	spec.ApplyDefaults(d)
	r, err := resolve.FromSpec(d)
	if err != nil {
		t.Fatal(err)
	}
	return input.FromResolved(r)
}

// TestCandidatesByRelease: the search offers only layouts the release can
// express (resolve.Place): no expert parallelism before 0.8.0, no DP
// before 0.8.3 (--data-parallel-size and V1's DPAsyncMPClient, read at
// the v0.8.2 and v0.8.3 tags), both from then on.
func TestCandidatesByRelease(t *testing.T) {
	for _, tt := range []struct {
		version    string
		ep, dp     bool
		candidates bool
	}{
		{"0.7.3", false, false, true},
		{"0.8.2", true, false, true},
		{"0.8.3", true, true, true},
	} {
		in := autoAt(t, tt.version)
		cands := candidateLayouts(&in)
		ep, dp := false, false
		for _, c := range cands {
			ep, dp = ep || c.EP, dp || c.DP > 1
		}
		if ep != tt.ep || dp != tt.dp || (len(cands) > 0) != tt.candidates {
			t.Errorf("vLLM %s: %d candidates, EP among them %v (want %v), DP > 1 %v (want %v)",
				tt.version, len(cands), ep, tt.ep, dp, tt.dp)
		}
	}
}
