package resolve

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestRouterAPIServersPerRank: behind a colocated router the API-server
// count is per DP rank and says what generate writes: nothing unset (each
// rank's `vllm serve --data-parallel-rank R` runs vLLM's one), the spec's
// count on every rank when set. Without the router the derived count
// stays one per DP rank of the API-server node, written as
// --api-server-count.
func TestRouterAPIServersPerRank(t *testing.T) {
	base := func(count int, router bool) *spec.Deployment {
		y := routedSpec
		if router {
			y += "router: {policy: cache_aware}\n"
		}
		if count > 0 {
			y += fmt.Sprintf("vllm: {version: \"0.11.0\", api_server_count: %d}\n", count)
		} else {
			y += "vllm: {version: \"0.11.0\"}\n"
		}
		p := filepath.Join(t.TempDir(), "routed.yaml")
		if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		d, ds := spec.Load(p)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		spec.ApplyDefaults(d)
		return d
	}
	for _, c := range []struct {
		name        string
		count       int
		router      bool
		value       int
		from        Source
		why, notWhy string
		ext         bool
	}{
		{"router, unset", 0, true, 1, SourceRelease, "runs vLLM's default of one API server in front of its own engine (nothing written; 4 in all)", "written as --api-server-count", true},
		{"router, 2", 2, true, 2, SourceSpec, "written as --api-server-count 2 on each of the 4 ranks", "", true},
		{"no router", 0, false, 2, SourceDerived, "written as --api-server-count", "per DP rank behind the router", false},
	} {
		d := mustResolve(t, base(c.count, c.router))
		a := d.Engine.APIServers
		if a.Value != c.value || a.From != c.from || !strings.Contains(a.Why, c.why) || (c.notWhy != "" && strings.Contains(a.Why, c.notWhy)) {
			t.Errorf("%s: api_server_count %d from %v (%q), want %d from %v saying %q", c.name, a.Value, a.From, a.Why, c.value, c.from, c.why)
		}
		if d.ExternalLB() != c.ext || (c.ext && d.RankAPIServers() != c.value) {
			t.Errorf("%s: external LB %v, per-rank count %d", c.name, d.ExternalLB(), d.RankAPIServers())
		}
	}
}

// routedSpec is the routergen spec (cmd/vlaunch/testdata/script/
// routergen_bundle.txtar) without its router and vllm blocks: DP 4 on two
// 2-GPU nodes.
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
