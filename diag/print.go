package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Format names an output format for diagnostics.
type Format string

// Output formats every diagnostic-producing command accepts.
const (
	FormatText   Format = "text"
	FormatJSON   Format = "json"
	FormatSARIF  Format = "sarif"
	FormatGitHub Format = "github"
)

// ParseFormat checks a --output value against the formats in allowed.
func ParseFormat(s string, allowed ...Format) (Format, error) {
	names := make([]string, 0, len(allowed))
	for _, f := range allowed {
		if string(f) == s {
			return f, nil
		}
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown output format %q (want %s)", s, strings.Join(names, ", "))
}

// Sources maps a file name to its content, so text output can show snippets.
type Sources map[string][]byte

// Print renders ds in format f. tool names the producer in SARIF output.
func Print(w io.Writer, f Format, ds Diagnostics, src Sources, rules []RuleInfo) error {
	switch f {
	case FormatJSON:
		return printJSON(w, ds)
	case FormatSARIF:
		return printSARIF(w, ds, rules)
	case FormatGitHub:
		return printGitHub(w, ds)
	}
	return printText(w, ds, src)
}

func printText(w io.Writer, ds Diagnostics, src Sources) error {
	for _, d := range ds {
		fmt.Fprintln(w, d.String())
		if snip := snippet(src[d.File], d.Line, d.Col); snip != "" {
			fmt.Fprint(w, snip)
		}
		if d.Hint != "" {
			fmt.Fprintf(w, "    hint: %s\n", d.Hint)
		}
	}
	if len(ds) > 0 {
		fmt.Fprintln(w, ds.Summary())
	}
	return nil
}

// snippet returns the source line with a caret under the column, or "".
func snippet(content []byte, line, col int) string {
	if content == nil || line < 1 {
		return ""
	}
	lines := strings.Split(string(content), "\n")
	if line > len(lines) {
		return ""
	}
	text := strings.TrimRight(lines[line-1], "\r")
	if len(text) > 200 {
		text = text[:200] + "..."
	}
	out := fmt.Sprintf("  %4d | %s\n", line, text)
	if col >= 1 && col <= len(text)+1 {
		out += fmt.Sprintf("       | %s^\n", strings.Repeat(" ", col-1))
	}
	return out
}

type jsonReport struct {
	Version     int          `json:"version"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	Errors      int          `json:"errors"`
	Warnings    int          `json:"warnings"`
}

func printJSON(w io.Writer, ds Diagnostics) error {
	r := jsonReport{Version: 1, Diagnostics: ds, Errors: ds.Count(Error), Warnings: ds.Count(Warning)}
	if r.Diagnostics == nil {
		r.Diagnostics = []Diagnostic{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func printGitHub(w io.Writer, ds Diagnostics) error {
	for _, d := range ds {
		level := "notice"
		switch d.Severity {
		case Error:
			level = "error"
		case Warning:
			level = "warning"
		}
		props := []string{}
		if d.File != "" {
			props = append(props, "file="+escapeProperty(d.File))
		}
		if d.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", d.Line))
		}
		if d.Col > 0 {
			props = append(props, fmt.Sprintf("col=%d", d.Col))
		}
		props = append(props, "title="+escapeProperty(d.Code))
		msg := d.Message
		if d.Hint != "" {
			msg += " (hint: " + d.Hint + ")"
		}
		fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(msg))
	}
	return nil
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
