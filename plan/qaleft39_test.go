package plan

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
	"gopkg.in/yaml.v3"
)

// routerCPUSpec is examples/gpt-oss-120b-pd-2x8h100.yaml with the router
// on gw, a CPU-only host (gpus: 0) in neither pool (QA left 39 #1).
func routerCPUSpec(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../examples/gpt-oss-120b-pd-2x8h100.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "node: node0, port: 8000}", "node: gw, port: 18745}", 1)
	n1 := "    - {name: node1, address: 192.168.2.11, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n"
	s = strings.Replace(s, n1, n1+"    - {name: gw, address: 192.168.2.20, gpus: 0, interface: eth0}\n", 1)
	if !strings.Contains(s, "name: gw") || !strings.Contains(s, "node: gw") {
		t.Fatal("example changed")
	}
	return []byte(s)
}

// TestRouterCPUNodeCandidates (QA left 39 #1): plan places no pool and no
// colocated engine on the router's CPU-only host. A P/D candidate keeps
// the router there (withPD and the YAML --apply alike); a colocated one
// drops the node, which would otherwise be a 0-GPU node running engines
// (SPEC005).
func TestRouterCPUNodeCandidates(t *testing.T) {
	src := routerCPUSpec(t)
	var d spec.Deployment
	if err := yaml.Unmarshal(src, &d); err != nil {
		t.Fatal(err)
	}
	spec.ApplyDefaults(&d)
	if got := d.GPUNodes(); len(got) != 2 || got[0].Name != "node0" || got[1].Name != "node1" {
		t.Fatalf("GPU nodes %+v", got)
	}
	pools := &PDSettings{Prefill: PoolSettings{Nodes: []string{"node0"}, Instances: 1, TP: 8, PP: 1, DP: 1},
		Decode: PoolSettings{Nodes: []string{"node1"}, Instances: 1, TP: 8, PP: 1, DP: 1}}
	c := d
	pools.withPD(&c)
	if c.Disaggregation.Router.Node != "gw" {
		t.Errorf("withPD moved the router to %q, want it kept on gw", c.Disaggregation.Router.Node)
	}
	col := Settings{TP: 8, PP: 1, DP: 1, Replicas: 2}.toSpec(&d)
	for _, n := range col.Hardware.Nodes {
		if n.GPUs == 0 {
			t.Errorf("colocated candidate keeps %s with 0 GPUs", n.Name)
		}
	}
	own := Settings{PD: &PDSettings{Prefill: PoolSettings{Nodes: []string{"node0"}}, Decode: PoolSettings{Nodes: []string{"node1"}}}}
	for _, tc := range []struct {
		name string
		s    Settings
		want []string
		not  []string
	}{
		{"P/D", Settings{PD: pools}, []string{"node: gw", "name: gw"}, nil},
		{"colocated", Settings{TP: 8, PP: 1, DP: 1, Replicas: 2}, nil, []string{"gw"}},
	} {
		out, notes, err := ApplyNoted(src, own, tc.s)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: applied spec lacks %q:\n%s", tc.name, w, out)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(string(out), w) {
				t.Errorf("%s: applied spec still has %q (notes %q):\n%s", tc.name, w, notes, out)
			}
		}
	}
}
