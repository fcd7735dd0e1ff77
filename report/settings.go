package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/resolve"
)

// settingRow is one effective engine value as the reports show it.
type settingRow struct {
	Name, Value string
	// From is where the value came from, with how ("" for the spec's own
	// values without a note: they need no explanation).
	From string
}

// settingRows are the input's engine settings (resolve's provenance) in
// report order; the weights name the checkpoint's dtype when they differ.
func settingRows(in estimate.InputSummary) []settingRow {
	out := make([]settingRow, 0, len(in.Settings))
	for _, s := range in.Settings {
		r := settingRow{Name: s.Name, Value: settingValue(s.Value), From: provenance(s)}
		if s.Name == "weights" && in.CheckpointDType != "" && r.Value != in.CheckpointDType {
			r.Value += " (checkpoint " + in.CheckpointDType + ")"
		}
		out = append(out, r)
	}
	return out
}

// settingValue prints a value: on/off, "none" for no value, a fraction
// with two decimals unless it needs more.
func settingValue(v any) string {
	switch x := v.(type) {
	case bool:
		return textfmt.OnOff(x)
	case string:
		if x == "" {
			return "none"
		}
		return x
	case float64:
		if s := strconv.FormatFloat(x, 'f', 2, 64); s == strconv.FormatFloat(x, 'f', -1, 64) || x == roundTo2(x) {
			return s
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

func roundTo2(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return v
}

// provenance says where a value came from: nothing for the spec's own
// (unless the spec's value has a note), the explanation alone where it
// names its source (a release default, vllm.env), otherwise the source and
// how ("assumed: ...", "auto: ...", "derived: ...").
func provenance(s resolve.NamedSetting) string {
	switch {
	case s.From == resolve.SourceSpec && s.Why == "":
		return ""
	case s.Why == "":
		return string(s.From)
	case s.From == resolve.SourceRelease || s.From == resolve.SourceEnv, strings.HasPrefix(s.Why, string(s.From)+":"):
		return s.Why
	}
	return string(s.From) + ": " + s.Why
}

// specPart lists the spec's own values on one line ("" when none).
func specPart(rows []settingRow) string {
	var parts []string
	for _, r := range rows {
		if r.From == "" {
			parts = append(parts, r.Name+" "+r.Value)
		}
	}
	return strings.Join(parts, " · ")
}

// writeSettingsText is the text report's settings block: the spec's own
// values on one line, then one line per value that came from elsewhere,
// with where. An input without provenance (built by hand) gets the plain
// settings line.
func writeSettingsText(w io.Writer, in estimate.InputSummary) {
	rows := settingRows(in)
	if len(rows) == 0 {
		fmt.Fprintln(w, settingsLine(in))
		return
	}
	if s := specPart(rows); s != "" {
		fmt.Fprintf(w, "  set in the spec: %s\n", s)
	}
	width := 0
	for _, r := range rows {
		if r.From != "" {
			width = max(width, len(r.Value))
		}
	}
	for _, r := range rows {
		if r.From != "" {
			fmt.Fprintf(w, "  %-23s %-*s  %s\n", r.Name, width, r.Value, r.From)
		}
	}
	if in.Speculative != nil {
		fmt.Fprintf(w, "  %s\n", in.Speculative.Text())
	}
}

// writeSettingsMarkdown is the settings block as a table (setting, value,
// where it came from), or the plain settings line for an input without
// provenance.
func writeSettingsMarkdown(w io.Writer, in estimate.InputSummary) {
	rows := settingRows(in)
	if len(rows) == 0 {
		fmt.Fprintf(w, "%s\n\n", settingsLine(in))
		return
	}
	fmt.Fprintf(w, "| setting | value | from |\n|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.Name, mdEscape(r.Value), mdEscape(orSpec(r.From)))
	}
	if in.Speculative != nil {
		fmt.Fprintf(w, "\n%s\n", in.Speculative.Text())
	}
}

// orSpec names the spec as the source of a value without a note.
func orSpec(from string) string {
	if from == "" {
		return string(resolve.SourceSpec)
	}
	return from
}
