package calibrate

import (
	"fmt"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// WriteMarkdown renders the report as Markdown (a pull request, a wiki
// page): the same sections as the text report, tables where it has
// columns, and every warning as a quoted paragraph.
func (r *Report) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "# Calibration of %s\n\nFrom %d benchmark result%s, starting from %s.\n\n", md(r.Deployment), len(r.used), textfmt.PluralS(len(r.used)), md(r.Start))
	fmt.Fprintf(w, "## Results\n\n| result | load and shape |\n|---|---|\n")
	for _, res := range r.Results {
		what := res.Load + ", " + res.Shape
		if res.Endpoint != "" {
			what += "; " + res.Endpoint
		}
		if res.NotUsed != "" {
			what = "not used: " + res.NotUsed
		}
		if res.Failed != "" {
			what += "; " + res.Failed
		}
		for _, n := range res.Notes {
			what += "; note: " + n
		}
		fmt.Fprintf(w, "| %s | %s |\n", md(res.Name), md(what))
	}
	if len(r.Constants) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Constants\n\n| constant | before | after | |\n|---|--:|--:|---|\n")
	for _, c := range r.Constants {
		move := moveText(c.Before, c.After)
		switch {
		case !c.Fitted:
			move = "not fitted: " + c.Why
		case c.Why != "":
			move += ": " + c.Why
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", c.Name, constText(c.Name, c.Before), constText(c.Name, c.After), md(move))
	}
	fmt.Fprintf(w, "\n## Predictions\n\n| value | measured | before | error | after | error | |\n|---|--:|--:|--:|--:|--:|---|\n")
	for _, t := range r.Targets {
		var note []string
		if !t.Fitted {
			note = append(note, "shown, not fitted: "+t.Why)
		}
		if t.Note != "" {
			note = append(note, t.Note)
		}
		if t.Binds != "" {
			note = append(note, t.Binds)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", md(t.Result+" "+t.Metric), num(t.Measured), num(t.Before), errText(t.Before, t.Measured),
			num(t.After), errText(t.After, t.Measured), md(strings.Join(note, "; ")))
	}
	fmt.Fprintf(w, "\n%s\n", r.worstText())
	if r.WorstWorsened {
		fmt.Fprintf(w, "\n> **Warning:** the fit makes the worst error worse (%.1f%% before, %.1f%% after).\n", r.WorstBeforePct, r.WorstAfterPct)
	}
	if len(r.Worsened) > 0 {
		fmt.Fprintf(w, "\n> **Warning:** the fit predicts %d figure%s worse than before:\n>\n", len(r.Worsened), textfmt.PluralS(len(r.Worsened)))
		for _, x := range r.Worsened {
			note := ""
			if !x.Fitted {
				note = " (shown, not fitted)"
			}
			fmt.Fprintf(w, "> - %s: %s%s\n", md(x.Figure), x.Change(), note)
		}
	}
	if len(r.AtBound) > 0 {
		fmt.Fprintf(w, "\nAt a bound of its range: %s — the results ask for more than the range allows; the model may be missing an effect they show.\n", strings.Join(r.AtBound, ", "))
	}
	r.Published.writeMarkdown(w)
}

// writeMarkdown is writeText's section in Markdown.
func (pc *PublishedCheck) writeMarkdown(w io.Writer) {
	if pc == nil {
		return
	}
	fmt.Fprintf(w, "\n## Published runs the fit was not given\n\nFrom %s, with the global constants and with the fitted ones. Compared: %s.\n", pc.files(), md(pc.Match))
	if pc.PDMatch != "" {
		fmt.Fprintf(w, "\nCompared too: %s.\n", md(pc.PDMatch))
	}
	if len(pc.OwnRows) > 0 {
		fmt.Fprintf(w, "\nLeft out as your own results: %s.\n", strings.Join(pc.OwnRows, ", "))
	}
	if len(pc.PDOwnRows) > 0 {
		fmt.Fprintf(w, "\nP/D runs left out as your own results: %s.\n", strings.Join(pc.PDOwnRows, ", "))
	}
	if len(pc.PDRefused) > 0 {
		fmt.Fprintf(w, "\nP/D runs not replayed: %s.\n", md(strings.Join(pc.PDRefused, "; ")))
	}
	if pc.None != "" {
		fmt.Fprintf(w, "\nNone compared: %s.\n", md(pc.None))
		return
	}
	fmt.Fprintf(w, "\n%d run%s on %s, %d figure%s (%d more left out, as the global calibration leaves them out)",
		pc.Rows, textfmt.PluralS(pc.Rows), pc.GPU, pc.Figures-pc.PDFigures, textfmt.PluralS(pc.Figures-pc.PDFigures), pc.ExcludedFigures)
	if pc.PDMatch != "" {
		fmt.Fprintf(w, "; %d P/D run%s, %d figure%s: median |error| %.1f%% with the global constants, %.1f%% with the fitted ones",
			pc.PDRows, textfmt.PluralS(pc.PDRows), pc.PDFigures, textfmt.PluralS(pc.PDFigures), pc.PDMedianBeforePct, pc.PDMedianAfterPct)
	}
	sep := ". All together: "
	if pc.PDMatch == "" {
		sep = ": "
	}
	fmt.Fprintf(w, "%smedian |error| %.1f%% with the global constants, %.1f%% with the fitted ones; %d figure%s better, %d worse.\n",
		sep, pc.MedianBeforePct, pc.MedianAfterPct, pc.Improved, textfmt.PluralS(pc.Improved), len(pc.Worsened))
	if len(pc.Worsened) > 0 {
		fmt.Fprintf(w, "\n| worse with the fitted constants | figure | published | global | fitted |\n|---|---|--:|--:|--:|\n")
		for _, f := range pc.Worsened {
			row := f.Row
			if f.PD {
				row += " (P/D)"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %+.1f%% | %+.1f%% |\n", row, f.Metric, num(f.Published), f.BeforePct, f.AfterPct)
		}
	}
	if pc.Warning != "" {
		fmt.Fprintf(w, "\n> **Warning:** %s.\n", pc.Warning)
	}
}

// md makes s one line of Markdown table text: control characters and
// newlines escaped (a file name cannot forge a row), pipes escaped.
func md(s string) string { return strings.ReplaceAll(diag.EscapeLine(s), "|", `\|`) }
