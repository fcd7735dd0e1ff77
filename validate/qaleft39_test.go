package validate

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// TestRouterNodeWithoutGPUs (QA left 39 #1): a P/D deployment's router
// may run on a CPU-only host (hardware.nodes[].gpus: 0) when the node runs
// nothing else: disaggregation.router.node, in neither pool. Any other
// node with 0 GPUs is an error at its gpus key (file:line:col).
func TestRouterNodeWithoutGPUs(t *testing.T) {
	b, err := os.ReadFile("../examples/gpt-oss-120b-pd-2x8h100.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pd := edit(t, string(b),
		"node: node0, port: 8000}", "node: gw, port: 18743}",
		"    - {name: node1, address: 192.168.2.11, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n",
		"    - {name: node1, address: 192.168.2.11, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n    - {name: gw, address: 192.168.2.20, gpus: 0, interface: eth0}\n")
	ds := mustBytes(t, "pd.yaml", pd)
	if len(ds) != 0 {
		t.Errorf("router-only node with 0 GPUs: want no finding, got\n%s", render(ds))
	}
	cases := []struct {
		name, src, path, msg string
		line                 int
	}{
		{"colocated", edit(t, readBase(t), "gpus: 8", "gpus: 0"), "hardware.nodes[0].gpus", "runs vLLM's engines", 13},
		{"decode node", edit(t, pd, "name: node1, address: 192.168.2.11, gpus: 8", "name: node1, address: 192.168.2.11, gpus: 0"), "hardware.nodes[1].gpus", "runs the decode pool's engines", 21},
		{"router on a pool's node", edit(t, pd, "node: gw, port: 18743}", "node: node1, port: 18743}", "name: node1, address: 192.168.2.11, gpus: 8", "name: node1, address: 192.168.2.11, gpus: 0"), "hardware.nodes[1].gpus", "runs the decode pool's engines", 21},
		{"idle node", edit(t, pd, "node: gw, port: 18743}", "node: node1, port: 18743}"), "hardware.nodes[2].gpus", "it is in neither pool and is not disaggregation.router.node (node1): it runs nothing", 22},
	}
	for _, c := range cases {
		ds := mustBytes(t, c.name+".yaml", c.src)
		var got []diag.Diagnostic
		for _, d := range ds {
			if d.Severity == diag.Error && d.Path == c.path {
				got = append(got, d)
			}
		}
		if len(got) != 1 || got[0].Code != CodeValue || !strings.Contains(got[0].Message, c.msg) || got[0].Line != c.line || got[0].Col == 0 {
			t.Errorf("%s: want one SPEC005 %q at the node's gpus with line:col, got\n%s", c.name, c.msg, render(ds))
		}
	}
}
