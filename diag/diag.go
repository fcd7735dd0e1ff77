// Package diag defines the one Diagnostic type every vlaunch package reports
// through, and the printers (text, json, sarif, github) that render them.
package diag

import (
	"fmt"
	"sort"
)

// Severity ranks a diagnostic. The zero value is invalid so that a forgotten
// severity is caught instead of silently reading as "info".
type Severity int

// Severities, from least to most severe.
const (
	Info Severity = iota + 1
	Warning
	Error
)

// String returns the lower-case name used in every output format.
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "invalid"
}

// ParseSeverity reads "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	for _, v := range []Severity{Info, Warning, Error} {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want info, warning or error)", s)
}

// MarshalText lets encoders print the severity by name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Code is a stable diagnostic code such as "SPEC002" or "VL101"; the
// constants and their documentation live in the diag/codes catalog.
type Code string

// Diagnostic is one finding: what is wrong, where, and how to fix it.
type Diagnostic struct {
	// Code is stable across releases (e.g. "SPEC002", "VL104"); tests and
	// suppressions rely on it. diag/codes lists and documents every code.
	Code     Code     `json:"code"`
	Severity Severity `json:"severity"`
	// File is the path as the user gave it; empty for findings without a file.
	File string `json:"file,omitempty"`
	// Line and Col are 1-based; 0 means unknown.
	Line int `json:"line,omitempty"`
	Col  int `json:"column,omitempty"`
	// Path is the field path inside a structured document (e.g. "hardware.nodes[1].name").
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
	// Hint says how to fix it ("did you mean ...", a flag to add).
	Hint string `json:"hint,omitempty"`
}

// Location renders "file:line:col" with the parts that are known.
func (d Diagnostic) Location() string {
	switch {
	case d.File == "":
		return ""
	case d.Line == 0:
		return d.File
	case d.Col == 0:
		return fmt.Sprintf("%s:%d", d.File, d.Line)
	}
	return fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Col)
}

// String renders the one-line form "file:line:col: severity: message [CODE]".
func (d Diagnostic) String() string {
	loc := d.Location()
	if loc != "" {
		loc += ": "
	}
	return fmt.Sprintf("%s%s: %s [%s]", loc, d.Severity, d.Message, d.Code)
}

// Diagnostics is a list of findings with helpers for sorting and gating.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is at error severity.
func (ds Diagnostics) HasErrors() bool { return ds.AtLeast(Error) }

// AtLeast reports whether any diagnostic is at severity min or above.
func (ds Diagnostics) AtLeast(min Severity) bool {
	for _, d := range ds {
		if d.Severity >= min {
			return true
		}
	}
	return false
}

// Count returns how many diagnostics have exactly severity s.
func (ds Diagnostics) Count(s Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// Sort orders diagnostics by file, line, column, code and message so that
// output is deterministic whatever order the checks ran in.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}

// Summary returns "N errors, M warnings" for the end of a text report.
func (ds Diagnostics) Summary() string {
	return fmt.Sprintf("%s, %s", plural(ds.Count(Error), "error"), plural(ds.Count(Warning), "warning"))
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
