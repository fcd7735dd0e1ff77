package report

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/plan"
)

// A pool with no all-to-all ("none": no DP MoE exchange) shows its GPUs and
// load only; "prefill 4 GPUs none, 73% busy" read as a load (qa42). A
// named backend stays.
func TestPDFiguresLineNoBackend(t *testing.T) {
	c := plan.Candidate{Fits: true, PD: &plan.PDFigures{PrefillGPUs: 4, DecodeGPUs: 4, PrefillAll2All: "none", DecodeAll2All: "deepep_low_latency",
		PrefillUtilization: 0.73, DecodeUtilization: 0.5}}
	got := pdFiguresLine(c)
	if !strings.Contains(got, "prefill 4 GPUs, 73% busy") || !strings.Contains(got, "decode 4 GPUs deepep_low_latency, 50% busy") {
		t.Errorf("got %q", got)
	}
}
