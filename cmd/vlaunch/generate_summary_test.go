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
		Findings: diag.Diagnostics{{Severity: diag.Error, Code: "EST108"}}}
	var b bytes.Buffer
	printVerdict(&b, rep)
	first, _, _ := strings.Cut(b.String(), "\n")
	want := "feasibility: NOT FEASIBLE as specified (SLO throughput (output tokens/s) fails; error EST108); the bundle starts, "
	if !strings.HasPrefix(first, want) {
		t.Errorf("got %q, want it to start %q", first, want)
	}
}

// TestPrintVerdictQueuedSessions: a deployment whose sessions do not all fit
// in the KV cache at once is feasible when its SLOs pass (EST103 is a
// warning: vLLM queues the excess), and generate says so, repeating the
// warning under the verdict rather than reporting a plain fit.
func TestPrintVerdictQueuedSessions(t *testing.T) {
	rep := &estimate.Report{Feasible: true, SLO: []slo.Verdict{{Name: "TPOT (mean)", Verdict: slo.VerdictPass}},
		Findings: diag.Diagnostics{{Severity: diag.Warning, Code: "EST103", Message: "64 concurrent sessions … queues the rest"},
			{Severity: diag.Warning, Code: "EST104", Message: "CUDA graphs"}}}
	rep.Memory.Capacity.OneSequenceFits, rep.Memory.Capacity.MaxSeqsPerRank = true, 11
	var b bytes.Buffer
	printVerdict(&b, rep)
	out := b.String()
	want := "feasibility: the workload runs, 11 sessions at once per rank at full length, the rest queued (EST103), and every SLO passes"
	if !strings.HasPrefix(out, want) || !strings.Contains(out, "queues the rest [EST103]") || strings.Contains(out, "EST104") {
		t.Errorf("got\n%s\nwant it to start %q and repeat EST103 (not EST104)", out, want)
	}
}

// TestPrintVerdictStartRefusal (newuser40 finding 3): an error that stops
// vLLM at start-up (EST102: one max_model_len sequence does not fit) makes
// the summary say vLLM will not start, never "the bundle starts"; an error
// whose engines start (EST103) keeps "the bundle starts".
func TestPrintVerdictStartRefusal(t *testing.T) {
	for _, c := range []struct {
		codes []diag.Code
		want  string
	}{
		{[]diag.Code{"EST102"}, "; vLLM will not start (EST102): the bundle is written, but fix the spec first"},
		{[]diag.Code{"EST103", "EST101"}, "; vLLM will not start (EST101): "},
		{[]diag.Code{"EST103"}, "; the bundle starts, but will not meet the spec"},
	} {
		rep := &estimate.Report{}
		for _, code := range c.codes {
			rep.Findings = append(rep.Findings, diag.Diagnostic{Severity: diag.Error, Code: code})
		}
		var b bytes.Buffer
		printVerdict(&b, rep)
		first, _, _ := strings.Cut(b.String(), "\n")
		if !strings.Contains(first, c.want) {
			t.Errorf("%v: got %q, want %q in it", c.codes, first, c.want)
		}
	}
}
