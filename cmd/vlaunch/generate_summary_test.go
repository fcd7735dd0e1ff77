package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// TestPrintVerdictSaysWhyInfeasible: generate's "NOT FEASIBLE as
// specified" says what makes it so, in the reports' one wording
// (report.InfeasibleWhy): the failing SLOs and the error findings' codes;
// an uncertain verdict is not one of them.
func TestPrintVerdictSaysWhyInfeasible(t *testing.T) {
	rep := &estimate.Report{SLO: []slo.Verdict{{Name: "throughput (output tokens/s)", Verdict: slo.VerdictFail},
		{Name: "TPOT (mean)", Verdict: slo.VerdictUncertain}},
		Findings: diag.Diagnostics{{Severity: diag.Error, Code: "EST103"}}}
	var b bytes.Buffer
	printVerdict(&b, rep)
	first, _, _ := strings.Cut(b.String(), "\n")
	want := "feasibility: NOT FEASIBLE as specified (SLO throughput (output tokens/s) fails; error EST103); the bundle starts, "
	if !strings.HasPrefix(first, want) {
		t.Errorf("got %q, want it to start %q", first, want)
	}
}
