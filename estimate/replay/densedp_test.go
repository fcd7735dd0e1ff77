package replay

import (
	"os"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/published"
)

// TestDenseDPReplayAsCheck: a published run of a dense model with DP 4
// (Llama-3.1-8B on one node of 4 H100s, vLLM 0.11.0, internal LB) is
// replayed as check simulates the same deployment (estimate/testdata/
// llama-3.1-8b-dp4-4xh100.yaml): the four ranks independent engines
// (sim.IndependentRanks: every step-model call carries one rank's load,
// never four in lock-step) behind vLLM's balancer, which the replay
// decides from the row's flags and check from the spec through the one
// function, sim.DPLBFor: 4 API servers (what vlaunch's bundle writes,
// --api-server-count = the first node's DP ranks, resolve/apiservers.go;
// the row says so too: vLLM 0.11.0's own default is 1), views published
// every 100 ms.
func TestDenseDPReplayAsCheck(t *testing.T) {
	if !sim.UseIndependentDP || !sim.UseDPLB {
		t.Skip("switches off")
	}
	g, err := catalog.LookupGPU("h100-sxm")
	m, merr := catalog.LookupModel("llama-3.1-8b")
	if err != nil || merr != nil {
		t.Fatal(err, merr)
	}
	var r published.Row
	r.Model.Catalog = "llama-3.1-8b"
	r.Engine = published.Engine{Name: "vllm", Version: "0.11.0", Flags: "vllm serve meta-llama/Llama-3.1-8B-Instruct --data-parallel-size 4 --api-server-count 4"}
	r.Hardware.GPU, r.Hardware.Nodes, r.Hardware.GPUsPerNode = "h100-sxm", published.N(1), published.N(4)
	r.Layout.TP, r.Layout.DP = published.N(1), published.N(4)
	r.Load.Kind, r.Load.Concurrency, r.Load.NumPrompts = published.LoadClosedLoop, published.N(64), published.N(320)
	r.Workload.Dataset, r.Workload.InputTokens, r.Workload.OutputTokens = "random", published.N(512), published.N(128)
	e := engineOf(r, g, 4096)
	e.apiServers = apiServersOf(r, e)

	y, err := os.ReadFile("../testdata/llama-3.1-8b-dp4-4xh100.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := testinput.FromYAML(t, "llama-3.1-8b-dp4-4xh100.yaml", string(y))
	cfg := sim.Config{DP: in.Layout.DP}
	slo.ApplyEngine(&in, perf.EfficiencyFor(&in), &cfg)
	want := sim.DPLB{Clients: 4, IntervalS: 0.1}
	if fromRow := sim.DPLBFor(dplbOf(r, e, 4)); cfg.DPLB != want || fromRow != want {
		t.Errorf("balancer: check %+v, replay %+v, want %+v", cfg.DPLB, fromRow, want)
	}

	sm := perf.NewStepModel(perf.StepSetup{Model: m, HW: perf.NewHardware(g, 4, 450, 2, 100, 1, 10), TP: 1, PP: 1, DP: 4,
		WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: perf.DefaultEfficiency})
	calls := 0
	out := simulate(r, sm, e, Options{Seed: 1, stepHook: func(loads []perf.RankLoad, _ float64) {
		calls++
		if len(loads) != 1 {
			t.Fatalf("step with %d ranks' loads: the dense ranks stepped in lock-step", len(loads))
		}
	}})
	if calls == 0 || out.Sim == nil || out.Sim.Requests != 320 {
		t.Fatalf("replay: %d steps, %+v", calls, out.Sim)
	}
}
