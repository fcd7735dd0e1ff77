package slo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/estimate/sim"
	"github.com/vlaunch/vlaunch/spec"
)

// routedSpec is the routergen spec (cmd/vlaunch/testdata/script/
// routergen_bundle.txtar): DP 4 on two 2-GPU nodes behind vllm-router.
const routedSpec = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: routed}
model: {name: qwen3-30b-a3b, path: Qwen/Qwen3-30B-A3B}
hardware:
  gpu: h100-80g
  nodes:
    - {name: node0, address: 10.0.0.1, gpus: 2, interface: eth0}
    - {name: node1, address: 10.0.0.2, gpus: 2, interface: eth0}
  network:
    inter_node: {kind: ethernet, bandwidth_gbit_per_s: 100}
workload: {concurrency: 64, session_tokens: 16384, input_tokens: 1024, output_tokens: 256}
parallelism: {tensor: 1, pipeline: 1, data: 4, expert: true}
`

func routedInput(t *testing.T, extra string) input.Input {
	t.Helper()
	p := filepath.Join(t.TempDir(), "routed.yaml")
	if err := os.WriteFile(p, []byte(routedSpec+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	d, ds := spec.Load(p)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spec.ApplyDefaults(d)
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestRouterFrontEndPerRank: behind the router the bundle starts one
// `vllm serve --data-parallel-rank R` per rank, each with its own API
// server(s) (generate writes the spec's api_server_count on every rank,
// nothing unset: one each), so the simulation gives each rank a front end
// of that many processes (sim.Frontend.PerRank), its costs over them —
// not the replica's derived count (2, one per DP rank of node0) spread
// over one shared pool. Without the router the front end stays the
// replica's (2 API servers, one pool).
func TestRouterFrontEndPerRank(t *testing.T) {
	eff := perf.DefaultEfficiency
	for _, c := range []struct {
		name, extra string
		servers     int
		perRank     bool
	}{
		{"router, count unset", "router: {policy: cache_aware}\nvllm: {version: \"0.11.0\"}\n", 1, true},
		{"router, api_server_count 2", "router: {policy: cache_aware}\nvllm: {version: \"0.11.0\", api_server_count: 2}\n", 2, true},
		{"no router", "vllm: {version: \"0.11.0\"}\n", 2, false},
	} {
		in := routedInput(t, c.extra)
		var cfg sim.Config
		cfg.DP = 4
		ApplyEngine(&in, eff, &cfg)
		fe := cfg.Frontend
		if fe.Servers != c.servers || fe.PerRank != c.perRank || fe.RequestS != eff.FrontendRequestS/float64(c.servers) {
			t.Errorf("%s: front end %d servers (per rank %v), RequestS %g; want %d (per rank %v), %g",
				c.name, fe.Servers, fe.PerRank, fe.RequestS, c.servers, c.perRank, eff.FrontendRequestS/float64(c.servers))
		}
		if c.perRank && in.Resolved().RankAPIServers() != c.servers {
			t.Errorf("%s: resolve's per-rank count %d, the simulation's %d", c.name, in.Resolved().RankAPIServers(), c.servers)
		}
	}
}

// TestBurstLoadPacing: check's finite run at a rate (workload.burst_requests
// with arrival_rate_per_s) is paced as vllm bench serve paces it
// (sim.Config.ClientPacing); a burst sent at once is not.
func TestBurstLoadPacing(t *testing.T) {
	for _, c := range []struct {
		rate float64
		want bool
	}{{4, true}, {0, false}} {
		in := input.Input{}
		in.Workload = spec.Workload{BurstRequests: 100, ArrivalRatePerS: c.rate, Concurrency: 8}
		var cfg sim.Config
		FiniteRun(&in, &cfg)
		if cfg.ClientPacing != c.want || cfg.Pool != 100 {
			t.Errorf("rate %g: paced %v, pool %d; want %v, 100", c.rate, cfg.ClientPacing, cfg.Pool, c.want)
		}
	}
}
