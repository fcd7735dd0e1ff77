package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
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

// Print renders ds in format f; rules describe the codes for SARIF. Every
// format is written through a TerminalWriter: the JSON encoder escapes C0
// controls but not DEL or C1, and the GitHub format escapes neither.
func Print(w io.Writer, f Format, ds Diagnostics, src Sources, rules []RuleInfo) error {
	tw := NewTerminalWriter(w)
	if err := render(tw, f, ds, src, rules); err != nil {
		return err
	}
	return tw.Flush()
}

func render(w io.Writer, f Format, ds Diagnostics, src Sources, rules []RuleInfo) error {
	switch f {
	case FormatJSON:
		return printJSON(w, ds)
	case FormatSARIF:
		return printSARIF(w, ds, src, rules)
	case FormatGitHub:
		return printGitHub(w, ds)
	}
	return printText(w, ds, src)
}

// printText renders the human report. Everything taken from the user's
// files and values is escaped (see Escape): a linted file must not be able
// to drive the terminal showing its findings.
func printText(w io.Writer, ds Diagnostics, src Sources) error {
	for _, d := range ds {
		fmt.Fprintln(w, EscapeLine(d.String()))
		if snip := snippet(src[d.File], d.Line, d.Col); snip != "" {
			fmt.Fprint(w, snip)
		}
		if d.Hint != "" {
			fmt.Fprintf(w, "    hint: %s\n", EscapeLine(d.Hint))
		}
	}
	if len(ds) > 0 {
		fmt.Fprintln(w, ds.Summary())
	}
	return nil
}

// maxSnippet bounds the source line shown, in bytes.
const maxSnippet = 200

// snippet returns the source line, escaped, with a caret under the column
// (a byte offset into the line), or "".
func snippet(content []byte, line, col int) string {
	if content == nil || line < 1 {
		return ""
	}
	lines := strings.Split(string(content), "\n")
	if line > len(lines) {
		return ""
	}
	text := strings.TrimRight(lines[line-1], "\r")
	shown := text
	if len(shown) > maxSnippet {
		cut := maxSnippet
		for cut > 0 && !utf8.RuneStart(shown[cut]) {
			cut--
		}
		shown = shown[:cut] + "..."
	}
	out := fmt.Sprintf("  %4d | %s\n", line, EscapeLine(shown))
	if col >= 1 && col <= len(text)+1 && col-1 <= maxSnippet {
		out += fmt.Sprintf("       | %s^\n", caretPad(EscapeLine(text[:col-1])))
	}
	return out
}

// caretPad turns the (escaped) text before the column into blanks that
// line up under it: tabs stay tabs, every other character a space.
func caretPad(prefix string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return r
		}
		return ' '
	}, prefix)
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
		props = append(props, "title="+escapeProperty(string(d.Code)))
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
