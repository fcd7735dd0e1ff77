package lint

import (
	"os"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// VL230's severity follows what the spec says of the GPUs' links: a
// warning over PCIe, nothing over NVLink, an info without a spec.
func TestNixlPullSameNodeSeverity(t *testing.T) {
	data, err := os.ReadFile("testdata/rules/VL230/bad/pd.sh")
	if err != nil {
		t.Fatal(err)
	}
	in := []Input{{Name: "pd.sh", Data: data}}
	for _, tc := range []struct {
		link string
		want []diag.Severity
	}{
		{"", []diag.Severity{diag.Info}},
		{"pcie", []diag.Severity{diag.Warning}},
		{"nvlink", nil},
	} {
		opts := Options{}
		if tc.link != "" {
			opts.Spec = &spec.Deployment{Hardware: spec.Hardware{Network: spec.Network{IntraNode: spec.IntraNode{Kind: tc.link}}}}
		}
		ds, err := Lint(in, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []diag.Severity
		for _, d := range ds {
			if d.Code == "VL230" {
				got = append(got, d.Severity)
			}
		}
		if len(got) != len(tc.want) || (len(got) == 1 && got[0] != tc.want[0]) {
			t.Errorf("intra_node %q: VL230 severities %v, want %v", tc.link, got, tc.want)
		}
	}
}

// VL229 applies only across nodes; on one host the hand-off never leaves it.
func TestNixlTCPOneHost(t *testing.T) {
	src := "# lint-version: 0.19.0\nexport UCX_TLS=tcp,cuda_copy NCCL_IB_HCA=mlx5_0\n" +
		"CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_producer\"}' &\n" +
		"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_consumer\"}' &\n"
	ds, err := Lint([]Input{{Name: "pd.sh", Data: []byte(src)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Code == "VL229" {
			t.Errorf("VL229 on one host: %s", d.String())
		}
	}
}
