package preflight

import (
	"context"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// spanningPD turns the 4-node H20 spec into a P/D spec whose prefill
// instance spans node0 and node1 (TP 8 × PP 2) and whose decode instance
// spans node2 and node3 (TP 8 × PP 2).
func spanningPD(d *spec.Deployment) {
	d.Parallelism = spec.Parallelism{}
	d.VLLM.All2AllBackend = ""
	d.Disaggregation = &spec.Disaggregation{Connector: "nixl", Transport: "ucx",
		Router:  spec.Router{Kind: spec.RouterKindVLLM, Node: "node0", Port: 9000},
		Prefill: spec.Pool{Instances: 1, Nodes: []string{"node0", "node1"}, Parallelism: spec.PoolParallelism{Tensor: 8, Pipeline: 2, Data: 1}},
		Decode:  spec.Pool{Instances: 1, Nodes: []string{"node2", "node3"}, Parallelism: spec.PoolParallelism{Tensor: 8, Pipeline: 2, Data: 1}},
	}
}

// TestPDPoolPortsFromBundle: a P/D pool's ports.free reads the pool's
// generated commands (generator.MakePlan of the pool's deployment, as
// prefill/ and decode/ are written). With TP 8 × PP 2 over two 8-GPU nodes
// at vLLM 0.11.0 the pool is a Ray cluster: its first node runs
// `ray start --head --port 6379` and `vllm serve ... --port 8000` with no
// --data-parallel-rpc-port, the second only joins. The spec-derived list
// this replaces gave 8000 and vllm.rpc_port 13345 there (DP RPC, which no
// command binds) and missed the Ray GCS port.
func TestPDPoolPortsFromBundle(t *testing.T) {
	d := loadSpec(t, "h20-roce")
	spanningPD(d)
	r := resolved(t, d)
	pre, dec := &r.PD.Roles[0], &r.PD.Roles[1]
	run := func(role *resolve.Role, node string, router int, busy ...int) Result {
		t.Helper()
		h := fixtureHost(t, "h20-roce")
		busyPorts(busy...)(&h)
		rep, err := Run(context.Background(), Options{Deployment: role.Deployment, Role: role, Node: node, RouterPort: router,
			Only: []string{"ports.free"}, Host: h, WorkDir: "/srv", HFCacheDir: "/root/.cache/huggingface/hub", Timeout: fastTimeout * 10})
		if err != nil {
			t.Fatal(err)
		}
		return resultOf(t, rep, "ports.free")
	}
	for _, c := range []struct {
		role    *resolve.Role
		node    string
		router  int
		busy    []int
		want    Status
		mention []string
	}{
		{pre, "node0", 9000, nil, Pass, []string{"free: 9000, 29000, 6379, 8000", "Ray head's GCS"}},
		{pre, "node0", 9000, []int{6379}, Fail, []string{"6379 in use"}},
		{pre, "node1", 0, nil, Skip, []string{"headless"}},
		{dec, "node2", 0, nil, Pass, []string{"free: 6379, 8000"}},
		{dec, "node3", 0, []int{13345}, Skip, []string{"headless"}},
	} {
		got := run(c.role, c.node, c.router, c.busy...)
		wantResult(t, got, c.want, c.mention...)
		if strings.Contains(got.Expected, "13345") {
			t.Errorf("%s %s: %q lists vllm.rpc_port 13345, which no command of the pool binds", c.role.Name, c.node, got.Expected)
		}
	}
}
