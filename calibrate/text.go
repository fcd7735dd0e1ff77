package calibrate

import (
	"fmt"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"io"
	"strings"
)

// WriteText renders the report for a terminal.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "Calibrating %s\nfrom %d benchmark result%s, starting from %s.\n", r.Deployment, len(r.used), textfmt.PluralS(len(r.used)), r.Start)
	fmt.Fprintf(w, "\nResults\n")
	for _, res := range r.Results {
		what := res.Load + ", " + res.Shape
		if res.Endpoint != "" {
			what += "; " + res.Endpoint
		}
		if res.NotUsed != "" {
			what = "not used: " + res.NotUsed
		}
		fmt.Fprintf(w, "  %-28s %s\n", res.Name, what)
		if res.Failed != "" {
			fmt.Fprintln(w, wrap(res.Failed, 92, "    "))
		}
		for _, n := range res.Notes {
			fmt.Fprintln(w, wrap("note: "+n, 92, "    "))
		}
	}
	if len(r.Constants) == 0 {
		return
	}
	fmt.Fprintf(w, "\nConstants                    before       after\n")
	for _, c := range r.Constants {
		line := fmt.Sprintf("  %-22s %11s %11s", c.Name, constText(c.Name, c.Before), constText(c.Name, c.After))
		if c.Fitted {
			line += fmt.Sprintf("  %s", moveText(c.Before, c.After))
			if c.Why != "" {
				line += ":"
			}
		} else {
			line += "  not fitted:"
		}
		fmt.Fprintln(w, line)
		if c.Why != "" {
			fmt.Fprintln(w, wrap(c.Why, 92, "    "))
		}
	}
	fmt.Fprintf(w, "\nPredictions                                     measured        before            after\n")
	for _, t := range r.Targets {
		line := fmt.Sprintf("  %-44s %9s %9s %7s %9s %7s", clip(t.Result+" "+t.Metric, 44), num(t.Measured), num(t.Before), errText(t.Before, t.Measured), num(t.After), errText(t.After, t.Measured))
		if !t.Fitted {
			line += "  shown, not fitted:"
		}
		fmt.Fprintln(w, line)
		if !t.Fitted {
			fmt.Fprintln(w, wrap(t.Why, 92, "    "))
		}
		if t.Note != "" {
			fmt.Fprintln(w, wrap(t.Note, 92, "    "))
		}
		if t.Binds != "" {
			fmt.Fprintln(w, wrap(t.Binds, 92, "    "))
		}
	}
	// The fit minimises |log(predicted/measured)|, so its worst error is a
	// ratio: say so, or an under-prediction of -73.8% in the table above
	// reads as a contradiction of "282%" here.
	fmt.Fprintf(w, "\n%s\n", r.worstText())
	r.writeWorsened(w)
	if len(r.AtBound) > 0 {
		fmt.Fprintf(w, "At a bound of its range: %s — the results ask for more than the range allows; the model may be missing an effect they show.\n", strings.Join(r.AtBound, ", "))
	}
	r.Published.writeText(w)
}

// writeText shows how the fit does on the published runs it was not given:
// which runs and why, the median error before and after, each figure it
// made worse, and the warning; or why nothing could be compared.
func (pc *PublishedCheck) writeText(w io.Writer) {
	if pc == nil {
		return
	}
	fmt.Fprintf(w, "\nPublished runs the fit was not given (%s, with the global constants and with the fitted ones)\n", pc.files())
	fmt.Fprintln(w, wrap("Compared: "+pc.Match+".", 92, "  "))
	if pc.PDMatch != "" {
		fmt.Fprintln(w, wrap("Compared too: "+pc.PDMatch+".", 92, "  "))
	}
	if len(pc.OwnRows) > 0 {
		fmt.Fprintln(w, wrap("Left out as your own results: "+strings.Join(pc.OwnRows, ", ")+".", 92, "  "))
	}
	if len(pc.PDOwnRows) > 0 {
		fmt.Fprintln(w, wrap("P/D runs left out as your own results: "+strings.Join(pc.PDOwnRows, ", ")+".", 92, "  "))
	}
	if len(pc.PDRefused) > 0 {
		fmt.Fprintln(w, wrap("P/D runs not replayed: "+strings.Join(pc.PDRefused, "; ")+".", 92, "  "))
	}
	if pc.None != "" {
		fmt.Fprintln(w, wrap("None compared: "+pc.None+".", 92, "  "))
		return
	}
	fmt.Fprintf(w, "  %d run%s on %s, %d figure%s (%d more left out, as the global calibration leaves them out)\n",
		pc.Rows, textfmt.PluralS(pc.Rows), pc.GPU, pc.Figures-pc.PDFigures, textfmt.PluralS(pc.Figures-pc.PDFigures), pc.ExcludedFigures)
	if pc.PDMatch != "" {
		fmt.Fprintf(w, "  %d P/D run%s on %s, %d figure%s: median |error| %.1f%% with the global constants, %.1f%% with the fitted ones\n",
			pc.PDRows, textfmt.PluralS(pc.PDRows), pc.GPU, pc.PDFigures, textfmt.PluralS(pc.PDFigures), pc.PDMedianBeforePct, pc.PDMedianAfterPct)
	}
	fmt.Fprintf(w, "  %smedian |error| %.1f%% with the global constants, %.1f%% with the fitted ones; %d figure%s better, %d worse\n",
		pc.allText(), pc.MedianBeforePct, pc.MedianAfterPct, pc.Improved, textfmt.PluralS(pc.Improved), len(pc.Worsened))
	if len(pc.Worsened) > 0 {
		fmt.Fprintf(w, "  Worse with the fitted constants                                  published    global     fitted\n")
		for _, f := range pc.Worsened {
			fmt.Fprintf(w, "    %-60s %9s %+8.1f%% %+8.1f%%\n", clip(f.label(), 60), num(f.Published), f.BeforePct, f.AfterPct)
		}
	}
	if pc.Warning != "" {
		fmt.Fprintln(w, wrap("Warning: "+pc.Warning+".", 100, ""))
	}
}

// files names the published files compared.
func (pc *PublishedCheck) files() string {
	if pc.PDMatch != "" {
		return "published/throughput.yaml and published/pd.yaml"
	}
	return "published/throughput.yaml"
}

// allText prefixes the overall median when P/D figures are in it.
func (pc *PublishedCheck) allText() string {
	if pc.PDMatch != "" {
		return "all together: "
	}
	return ""
}

// label is the figure's row and metric, a P/D run's marked so.
func (f PublishedFigure) label() string {
	if f.PD {
		return f.Row + " (P/D) " + f.Metric
	}
	return f.Row + " " + f.Metric
}

// writeWorsened names every figure the fit predicts worse, and says when
// the worst error grew.
func (r *Report) writeWorsened(w io.Writer) {
	if r.WorstWorsened {
		fmt.Fprintf(w, "Warning: the fit makes the worst error worse (%.1f%% before, %.1f%% after).\n", r.WorstBeforePct, r.WorstAfterPct)
	}
	if len(r.Worsened) == 0 {
		return
	}
	fmt.Fprintf(w, "Warning: the fit predicts %d figure%s worse than before:\n", len(r.Worsened), textfmt.PluralS(len(r.Worsened)))
	for _, x := range r.Worsened {
		note := ""
		if !x.Fitted {
			note = " (shown, not fitted)"
		}
		fmt.Fprintf(w, "  %s: %s%s\n", x.Figure, x.Change(), note)
	}
}

// Change is "+42.8% -> +98.9%", the figure's error before and after.
func (x Worsened) Change() string {
	return fmt.Sprintf("%+.1f%% -> %+.1f%%", x.BeforePct, x.AfterPct)
}

// constText shows a constant in its unit: fractions as such, seconds in
// ms or µs.
func constText(name string, v float64) string {
	switch {
	case !strings.HasSuffix(name, "_s"):
		return fmt.Sprintf("%.3f", v)
	case v >= 1e-3:
		return fmt.Sprintf("%.2f ms", v*1e3)
	}
	return fmt.Sprintf("%.1f µs", v*1e6)
}

func moveText(before, after float64) string {
	if before == after {
		return "unchanged"
	}
	return fmt.Sprintf("×%.2f", after/before)
}

func errText(pred, meas float64) string {
	return fmt.Sprintf("%+.1f%%", 100*(pred/meas-1))
}

func num(v float64) string {
	switch {
	case v >= 1e4:
		return fmt.Sprintf("%.0f", v)
	case v >= 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func clip(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return "…" + string([]rune(s)[len([]rune(s))-n+1:])
}

// wrap breaks text into lines of at most width runes, each indented.
func wrap(text string, width int, indent string) string {
	var lines []string
	line := indent
	for _, word := range strings.Fields(text) {
		if len([]rune(line))+len([]rune(word)) > width && strings.TrimSpace(line) != "" {
			lines = append(lines, strings.TrimRight(line, " "))
			line = indent
		}
		line += word + " "
	}
	return strings.Join(append(lines, strings.TrimRight(line, " ")), "\n")
}
