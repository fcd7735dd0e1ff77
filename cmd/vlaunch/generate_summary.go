package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/generator"
	"github.com/vlaunch/vlaunch/report"
	"github.com/vlaunch/vlaunch/resolve"
)

// feasibility runs the same estimate as `vlaunch check` (same deployment,
// same simulation seed) for the bundle README and generate's own output;
// confirmed is the layout search's evaluation of the layout it chose (nil
// for a pinned one), which checkEstimate takes when it fits.
func feasibility(r *resolve.Deployment, confirmed *estimate.PerfConfirmation) *estimate.Report {
	if r.PD != nil {
		// The pools, the KV hand-off and the router hop, as check models them.
		rep := checkPD(r, estimate.PerfOptions{Seed: simSeed})
		r.Spec.Locate(rep.Findings)
		return &rep
	}
	in := estimate.FromResolved(r)
	rep := checkEstimate(&in, simPerf, confirmed)
	r.Spec.Locate(rep.Findings)
	return &rep
}

// printVerdict is the verdict summary generate prints: whether the
// deployment fits and meets its SLO, one line per SLO and the findings at
// error level with EST103's queueing warning (report.VerdictFindings), so
// an infeasible bundle is never reported as a plain success.
func printVerdict(w io.Writer, rep *estimate.Report) {
	if rep == nil {
		fmt.Fprintln(w, "feasibility: not estimated for a disaggregated deployment here: `vlaunch check SPEC` models its pools and the KV hand-off")
		return
	}
	if rep.Feasible {
		fmt.Fprintf(w, "feasibility: %s (vlaunch check SPEC has the derivation)\n", report.FeasibleWords(rep))
	} else {
		// What makes it so, in the reports' words (report.InfeasibleWhy).
		why := ""
		if x := report.InfeasibleWhy(rep); x != "" {
			why = " (" + x + ")"
		}
		if stop := startWords(rep); stop != "" {
			fmt.Fprintf(w, "feasibility: NOT FEASIBLE as specified%s; %s: the bundle is written, but fix the spec first (vlaunch check SPEC says why and what would pass)\n", why, stop)
		} else {
			fmt.Fprintf(w, "feasibility: NOT FEASIBLE as specified%s; the bundle starts, but will not meet the spec (vlaunch check SPEC says why and what would pass)\n", why)
		}
	}
	for _, s := range rep.SLO {
		fmt.Fprintf(w, "  %s\n", report.VerdictLine(s)) // check's own line (report.VerdictLine), band included
	}
	for _, f := range report.VerdictFindings(rep) {
		fmt.Fprintf(w, "  %s\n", diag.EscapeLine(f.String()))
	}
}

// startWords says that vLLM will not start and why, "" when it starts. A
// P/D deployment names the pool that does not start, in the words its
// verdicts carry (estimate.PoolsNotStarting: "the decode pool does not
// start (EST102)"); the line said "vLLM will not start (EST102)" with no
// pool (pdfix41).
func startWords(rep *estimate.Report) string {
	if rep.Disaggregated != nil {
		for _, s := range rep.SLO {
			if s.NotPredicted != "" {
				return "vLLM will not start: " + s.NotPredicted
			}
		}
	}
	if stop := estimate.StartRefusals(rep.Findings); len(stop) > 0 {
		return "vLLM will not start (" + strings.Join(stop, ", ") + ")"
	}
	return ""
}

// generatedJSON is `generate -o json`: where the bundle went, its files,
// the release, runtime and layout, generate's findings and check's report
// of the deployment (the bundle README's figures).
type generatedJSON struct {
	Dir         string           `json:"dir"`
	DryRun      bool             `json:"dry_run,omitempty"`
	VLLMVersion string           `json:"vllm_version"`
	Runtime     string           `json:"runtime"`
	Layout      string           `json:"layout"`
	Files       []generatedFile  `json:"files"`
	Feasible    bool             `json:"feasible"`
	Findings    diag.Diagnostics `json:"findings"`
	// Check is nil for a disaggregated deployment (not estimated yet).
	Check *estimate.Report `json:"check"`
}

type generatedFile struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
}

func writeGeneratedJSON(w io.Writer, o *generateOptions, b *generator.Bundle, rep *estimate.Report, findings diag.Diagnostics) error {
	out := generatedJSON{Dir: o.outDir, DryRun: o.dryRun, VLLMVersion: b.Plan.Release.Version.String(), Runtime: b.Plan.Runtime,
		Layout: bundleLayout(b), Files: []generatedFile{}, Feasible: rep != nil && rep.Feasible, Findings: findings, Check: rep}
	if out.Findings == nil {
		out.Findings = diag.Diagnostics{}
	}
	for _, f := range b.Files {
		out.Files = append(out.Files, generatedFile{Path: f.Path, Mode: f.Mode.String()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
