package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/published"
)

// TestDPLBCheckMatchesReplay: check (slo.ApplyEngine, from a spec) and the
// calibration replay (from a published row's flags) decide vLLM's DP load
// balancer for one deployment through one function (sim.DPLBFor) and get
// the same config. The deployment is the reference's layout — DeepSeek-V3,
// 4 nodes × 8 GPUs, TP 1, DP 32, vLLM 0.11.0 — and its bundle's 8 API
// servers (resolve: one per DP rank of the first node, written as
// --api-server-count 8), by hand:
//
//   - internal LB (what vlaunch's bundle launches: the primary serves the
//     API, the other nodes run --headless): 8 clients, each over all 32
//     ranks, views published every 100 ms;
//   - hybrid LB (--data-parallel-hybrid-lb, 8 ranks a node): every node's
//     8 API servers over its own 8 ranks (vLLM's local_engines_only);
//   - external LB (--data-parallel-external-lb): no vLLM balancer, one
//     rank per API server (DPAsyncMPClient);
//   - DP 1 (Qwen3-30B-A3B on one H100): nothing to balance.
func TestDPLBCheckMatchesReplay(t *testing.T) {
	defer func(v bool) { sim.UseDPLB = v }(sim.UseDPLB)
	sim.UseDPLB = true
	g, err := catalog.LookupGPU("h20-96g")
	if err != nil {
		t.Fatal(err)
	}
	row := func(flags string, nodes, dp float64) published.Row {
		var r published.Row
		r.Engine = published.Engine{Name: "vllm", Version: "0.11.0", Flags: flags}
		r.Hardware.Nodes = published.N(nodes)
		r.Layout.DP = published.N(dp)
		r.Load.Kind = published.LoadClosedLoop
		return r
	}
	reference := func(extra ...string) input.Input {
		d := testinput.ExampleSpec(t, "deepseek-v3-32xh20")
		d.VLLM.ExtraArgs = append(d.VLLM.ExtraArgs, extra...)
		in, ds := input.FromSpec(d)
		if ds.HasErrors() {
			t.Fatalf("resolve: %v", ds)
		}
		return in
	}
	const dp32 = "vllm serve deepseek-ai/DeepSeek-V3 --tensor-parallel-size 1 --data-parallel-size 32 --data-parallel-size-local 8 --api-server-count 8"
	internal := sim.DPLB{Clients: 8, IntervalS: 0.1}
	hybrid := sim.DPLB{Clients: 8, IntervalS: 0.1, GroupRanks: 8}
	for _, c := range []struct {
		what string
		in   input.Input
		r    published.Row
		want sim.DPLB
	}{
		{"internal LB", reference(), row(dp32, 4, 32), internal},
		{"hybrid LB", reference("--data-parallel-hybrid-lb"), row(dp32+" --data-parallel-hybrid-lb", 4, 32), hybrid},
		{"external LB", reference("--data-parallel-external-lb"), row(dp32+" --data-parallel-external-lb", 4, 32), sim.DPLB{}},
		{"DP 1", testinput.Example(t, "qwen3-30b-a3b-1xh100"), row("vllm serve Qwen/Qwen3-30B-A3B", 1, 1), sim.DPLB{}},
	} {
		cfg := sim.Config{DP: c.in.Layout.DP}
		slo.ApplyEngine(&c.in, perf.EfficiencyFor(&c.in), &cfg)
		e := engineOf(c.r, g, 4096)
		fromRow := sim.DPLBFor(dplbOf(c.r, e, c.r.Layout.DP.Int()))
		if cfg.DPLB != c.want || fromRow != c.want {
			t.Errorf("%s: check %+v, replay %+v, want %+v", c.what, cfg.DPLB, fromRow, c.want)
		}
	}
}
