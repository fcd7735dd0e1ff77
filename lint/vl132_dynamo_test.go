package lint

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// TestDynamoWorkerWithoutConnectorSeverity: a Dynamo prefill worker without
// --kv-transfer-config is a note (older runtimes defaulted NIXL, newer ones
// refuse it at start), a decode worker a warning (it starts and recomputes
// every prompt: published/pd.yaml's dynamo-gke-b200-llama70b).
func TestDynamoWorkerWithoutConnectorSeverity(t *testing.T) {
	fx := loadFixture(t, "testdata/rules/VL132/dynamo-worker.sh")
	ds, err := Lint(fx.inputs, Options{Version: fx.version})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]diag.Severity{}
	for _, d := range ds {
		if d.Code == "VL132" {
			got[d.Line] = d.Severity
		}
	}
	want := map[int]diag.Severity{4: diag.Info, 6: diag.Warning}
	for line, sev := range want {
		if got[line] != sev {
			t.Errorf("line %d: VL132 severity %v, want %v (all: %v)", line, got[line], sev, got)
		}
	}
}
