package report

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/plan"
)

// qa44b F15: Kimi-K2 P/D on 16 × H20, whose decode pool is KV-bound: the
// line said "D first step 897 s", which is the decode pool's admission
// queue (512 sessions at 0.515 requests/s), not a step. Each TTFT term
// now says whether it is a queue or a step, the admission wait apart from
// the first decode step.
func TestPDFiguresLineNamesQueuesAndSteps(t *testing.T) {
	c := plan.Candidate{Fits: true, Simulated: true, PD: &plan.PDFigures{PrefillGPUs: 8, DecodeGPUs: 8, Binding: "decode pool",
		PrefillQueueS: 0.4, PrefillS: 1.2, TransferS: 0.05, DecodeAdmitS: 897, FirstDecodeS: 0.06, OtherS: 0.01, LeaseFits: true}}
	l := pdFiguresLine(c)
	for _, want := range []string{"P queue 400 ms", "prefill step(s) 1.2 s", "D admission queue 897 s", "D first step 60 ms"} {
		if !strings.Contains(l, want) {
			t.Errorf("%q lacks %q", l, want)
		}
	}
	if cell := ttftPartsCell(c); !strings.Contains(cell, "897 s + 60 ms") {
		t.Errorf("table cell %q does not part admission from the first step", cell)
	}
}
