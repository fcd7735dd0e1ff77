package pd

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestDecodeUnitDenseDP: a decode pool of 2 instances of DP 4 is simulated
// as check and the replay simulate a deployment (sim.IndependentRanks): a
// dense model's instance is 4 independent ranks, each stepping as a DP-1
// engine (one rank's step model), 8 engines in all (noticedRead's per-
// engine running); a MoE model's is 4 lock-step ranks on the DP 4 step
// model, 2 engines. With sim.UseIndependentDP off, the dense instance was
// one rank standing for 8.
func TestDecodeUnitDenseDP(t *testing.T) {
	defer func(v bool) { sim.UseIndependentDP = v }(sim.UseIndependentDP)
	g, err := catalog.LookupGPU("h100-sxm")
	if err != nil {
		t.Fatal(err)
	}
	pool := func(model string, ep bool) *Pool {
		m, err := catalog.LookupModel(model)
		if err != nil {
			t.Fatal(err)
		}
		s := perf.StepSetup{Model: m, HW: perf.NewHardware(g, 8, 450, 2, 100, 1, 10), TP: 1, PP: 1, DP: 4, EP: ep,
			WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: perf.DefaultEfficiency}
		if ep {
			s.A2A = vllm.TrafficGather
		}
		return &Pool{Instances: 2, sm: perf.NewStepModel(s)}
	}
	for _, c := range []struct {
		what                        string
		model                       string
		ep, independentDP           bool
		dp, copies, engines, stepDP int
		independent                 bool
	}{
		{"dense", "llama-3.1-8b", false, true, 4, 2, 8, 1, true},
		{"dense, switch off", "llama-3.1-8b", false, false, 1, 8, 8, 1, false},
		{"MoE", "qwen3-30b-a3b", true, true, 4, 2, 2, 4, false},
	} {
		sim.UseIndependentDP = c.independentDP
		u, ok := unitOf(pool(c.model, c.ep))
		if !ok || u.dp != c.dp || u.copies != c.copies || u.engines() != c.engines || u.sm.S.DP != c.stepDP || u.independent != c.independent {
			t.Errorf("%s: ok %v, %d ranks × %d copies, %d engines, step model at DP %d, independent %v; want %d × %d, %d, DP %d, %v",
				c.what, ok, u.dp, u.copies, u.engines(), u.sm.S.DP, u.independent, c.dp, c.copies, c.engines, c.stepDP, c.independent)
		}
	}
}
