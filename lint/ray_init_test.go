package lint

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestRayInitHint: an LWS whose pods start Ray with LWS's ray_init.sh
// (leader / worker) is a Ray cluster over the group's nodes (qa/realin39
// lws-deepseek-v3-efa-tp8pp4.yaml): VL111's hint for TP x PP = 32 on 8-GPU
// pods names --distributed-executor-backend ray (before: "give the
// container TP x PP GPUs", as for a container alone), and VL131 reports
// NCCL_IB_DISABLE=1 on a deployment over several nodes (before: silent).
func TestRayInitHint(t *testing.T) {
	const name = "testdata/rules/VL131/lws-ray-init.yaml"
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Lint([]Input{{Name: name, Data: data}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var hint string
	ib := false
	for _, d := range ds {
		switch {
		case d.Code == codes.VLWorldSize:
			hint = d.Hint
		case d.Code == codes.VLNCCLTransport && strings.Contains(d.Message, "NCCL_IB_DISABLE"):
			ib = true
		}
	}
	if !strings.Contains(hint, "--distributed-executor-backend ray") {
		t.Errorf("VL111 hint %q does not name --distributed-executor-backend ray\n%s", hint, ds)
	}
	if !ib {
		t.Errorf("no VL131 for NCCL_IB_DISABLE=1 over the Ray cluster's nodes\n%s", ds)
	}
}
