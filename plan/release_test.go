package plan

import (
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// TestSpaceByRelease: plan's layouts are the ones the release can express
// (resolve.Place, the generator's rule): on the reference hardware with
// vLLM 0.8.2 no DP > 1 (--data-parallel-size came in 0.8.3: read at the
// v0.8.2 and v0.8.3 tags), with 0.7.3
// no expert parallelism either.
func TestSpaceByRelease(t *testing.T) {
	for _, tt := range []struct {
		version string
		ep      bool
	}{{"0.7.3", false}, {"0.8.2", true}} {
		d, ds := spec.Load("../examples/deepseek-v3-32xh20.yaml")
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		d.VLLM.Version, d.VLLM.APIServerCount = tt.version, nil
		spec.ApplyDefaults(d)
		r, err := resolve.FromSpec(d)
		if err != nil {
			t.Fatal(err)
		}
		ls := NewSpace(r).Layouts
		ep := false
		for _, l := range ls {
			ep = ep || l.EP
			if l.DP > 1 {
				t.Errorf("vLLM %s: plan offers DP %d (%+v)", tt.version, l.DP, l)
			}
		}
		if len(ls) == 0 || ep != tt.ep {
			t.Errorf("vLLM %s: %d layouts, expert parallelism among them %v, want %v", tt.version, len(ls), ep, tt.ep)
		}
	}
}
