package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/report"
	"github.com/vlaunch/vlaunch/resolve"
)

// feasibility runs the same estimate as `vlaunch check` (same deployment,
// same simulation seed) for the bundle README and generate's own output.
func feasibility(r *resolve.Deployment) *estimate.Report {
	in := estimate.FromResolved(r)
	rep := checkEstimate(&in, estimate.PerfOptions{Seed: simSeed})
	r.Spec.Locate(rep.Findings)
	return &rep
}

// printVerdict is the verdict summary generate prints: whether the
// deployment fits and meets its SLO, one line per SLO and the findings at
// error level, so an infeasible bundle is never reported as a plain success.
func printVerdict(w io.Writer, rep *estimate.Report) {
	if rep.Feasible {
		fmt.Fprintf(w, "feasibility: %s (vlaunch check SPEC has the derivation)\n", report.FeasibleWords(rep.SLO))
	} else {
		fmt.Fprintln(w, "feasibility: NOT FEASIBLE as specified; the bundle starts, but will not meet the spec (vlaunch check SPEC says why and what would pass)")
	}
	for _, s := range rep.SLO {
		target, pred := report.SLOFigures(s)
		fmt.Fprintf(w, "  %s %s: target %s, predicted %s [%s]\n", strings.ToUpper(s.Verdict), s.Name, target, pred, s.Binding)
	}
	for _, f := range rep.Findings {
		if f.Severity == diag.Error {
			fmt.Fprintf(w, "  %s\n", diag.EscapeLine(f.String()))
		}
	}
}
