package preflight

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// TestFindingsFromStatuses: fail is an error, warn a warning, pass and skip
// are not findings; control characters a host command printed are escaped.
func TestFindingsFromStatuses(t *testing.T) {
	r := Report{Node: "n1", Results: []Result{
		{ID: "gpu.count", Code: "PF101", Path: "hardware.nodes[1].gpus", Status: Fail, Found: "4 GPUs", Expected: "8 GPUs", Fix: "check\nnvidia-smi"},
		{ID: "host.shm", Code: "PF501", Status: Warn, Found: "\x1b[31m2 GiB\x1b[0m free"},
		{ID: "net.route", Code: "PF203", Status: Skip, Found: "single node"},
		{ID: "gpu.driver", Code: "PF104", Status: Pass, Found: "driver 550"},
	}}
	ds := r.Findings()
	want := diag.Diagnostics{
		{Code: "PF101", Severity: diag.Error, Path: "hardware.nodes[1].gpus", Message: "n1 gpu.count: 4 GPUs; expected 8 GPUs", Hint: "check nvidia-smi"},
		{Code: "PF501", Severity: diag.Warning, Message: `n1 host.shm: \u001b[31m2 GiB\u001b[0m free`},
	}
	if len(ds) != len(want) {
		t.Fatalf("got %d findings, want %d: %v", len(ds), len(want), ds)
	}
	for i := range want {
		if ds[i] != want[i] {
			t.Errorf("finding %d:\n got %+v\nwant %+v", i, ds[i], want[i])
		}
	}
}
