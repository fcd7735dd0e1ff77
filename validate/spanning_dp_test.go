package validate

import (
	"strings"
	"testing"
)

// TestSpanningDPRanksByRelease (qa43 F14): DP ranks whose engine spans
// nodes (TP 8 × PP 2 on 8-GPU nodes, DP 2 over 4 nodes) are what vLLM
// runs with --nnodes (PR #23691, in the v0.11.1 tag: arg_utils.py infers
// each node's DP rank from --node-rank, parallel_state.py joins a rank's
// nodes in the inner-DP group). validate accepts them where vlaunch
// writes --nnodes (read at the v0.11.1 tag since session 44), and refuses
// them (SPEC102) where it would generate a Ray engine (0.11.0: there one
// DP rank's group sat on one node) — as generate refuses (GEN011).
func TestSpanningDPRanksByRelease(t *testing.T) {
	four := edit(t, readBase(t),
		"    - {name: node1, address: 10.0.0.2, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n",
		"    - {name: node1, address: 10.0.0.2, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n"+
			"    - {name: node2, address: 10.0.0.3, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n"+
			"    - {name: node3, address: 10.0.0.4, gpus: 8, interface: eth0, rdma_devices: [mlx5_0]}\n",
		"  tensor: 1\n  pipeline: 1\n  data: 16", "  tensor: 8\n  pipeline: 2\n  data: 2")
	for _, tt := range []struct {
		version string
		refused bool
	}{{"0.11.0", true}, {"0.11.1", false}, {"0.12.0", false}, {"0.24.0", false}} {
		src := strings.NewReplacer(`version: "0.11.0"`, `version: "`+tt.version+`"`, "v0.11.0", "v"+tt.version).Replace(four)
		ds := mustBytes(t, "spanning-dp.yaml", src)
		var layout []string
		for _, d := range ds {
			if d.Code == CodeLayout {
				layout = append(layout, d.Path+": "+d.Message)
			}
		}
		switch {
		case tt.refused && (len(layout) != 1 || !strings.Contains(layout[0], "parallelism.data: TP 8 x PP 2 spans nodes with DP 2: vLLM runs DP ranks whose engine spans nodes with --nnodes (PR #23691; added in 0.11.1)")):
			t.Errorf("%s: want one SPEC102 at parallelism.data, got %q\n%s", tt.version, layout, render(ds))
		case !tt.refused && len(layout) > 0:
			t.Errorf("%s: vLLM runs this layout, validate refuses it: %q", tt.version, layout)
		case !tt.refused && ds.HasErrors():
			t.Errorf("%s: errors:\n%s", tt.version, render(ds))
		}
	}
}
