package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// suppression is one `# vlaunch:disable=CODE reason` comment.
type suppression struct {
	file     string
	line     int
	codes    []string
	from, to int // lines covered; 0, 0 = whole file
	used     bool
}

const (
	disableLine = "vlaunch:disable="
	disableFile = "vlaunch:disable-file="
)

// parseSuppressions finds suppression comments. A comment on its own line
// covers the next command (all its continuation lines); a trailing comment
// covers its line; disable-file covers the file.
func parseSuppressions(in Input) ([]*suppression, diag.Diagnostics) {
	lines := strings.Split(string(in.Data), "\n")
	var out []*suppression
	var ds diag.Diagnostics
	for i, l := range lines {
		hash := strings.Index(l, "#")
		if hash < 0 {
			continue
		}
		body := strings.TrimSpace(l[hash+1:])
		fileScope := strings.HasPrefix(body, disableFile)
		if !fileScope && !strings.HasPrefix(body, disableLine) {
			continue
		}
		body = strings.TrimPrefix(strings.TrimPrefix(body, disableFile), disableLine)
		codes, reason, _ := strings.Cut(body, " ")
		s := &suppression{file: in.Name, line: i + 1, codes: strings.Split(codes, ",")}
		ds = append(ds, checkSuppression(s, reason, hash+1)...)
		switch {
		case fileScope:
		case strings.TrimSpace(l[:hash]) != "":
			s.from, s.to = i+1, i+1
		default:
			s.from, s.to = i+2, commandEnd(lines, i+1)
		}
		out = append(out, s)
	}
	return out, ds
}

// commandEnd returns the last line of the command starting at index i.
func commandEnd(lines []string, i int) int {
	for i < len(lines) && strings.HasSuffix(strings.TrimRight(lines[i], "\r"), "\\") {
		i++
	}
	return i + 1
}

func checkSuppression(s *suppression, reason string, col int) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, c := range s.codes {
		if _, ok := RuleByCode(diag.Code(c)); !ok {
			ds = append(ds, diag.Diagnostic{Code: codeSuppression, Severity: diag.Warning, File: s.file, Line: s.line, Col: col,
				Message: "unknown rule code " + c + " in suppression", Hint: "`vlaunch explain --all` lists the codes"})
		}
	}
	if strings.TrimSpace(reason) == "" {
		ds = append(ds, diag.Diagnostic{Code: codeSuppression, Severity: diag.Warning, File: s.file, Line: s.line, Col: col,
			Message: "suppression without a reason", Hint: "write `# vlaunch:disable=CODE why this is fine`"})
	}
	return ds
}

func (s *suppression) covers(d diag.Diagnostic) bool {
	if d.File != s.file || d.Code == codeSuppression || d.Code == codeUnusedSuppression {
		return false
	}
	if s.from != 0 && (d.Line < s.from || d.Line > s.to) {
		return false
	}
	for _, c := range s.codes {
		if diag.Code(c) == d.Code {
			return true
		}
	}
	return false
}

// applySuppressions drops suppressed findings and reports bad or unused suppressions.
func applySuppressions(inputs []Input, ds diag.Diagnostics) diag.Diagnostics {
	var sups []*suppression
	for _, in := range inputs {
		s, bad := parseSuppressions(in)
		sups = append(sups, s...)
		ds = append(ds, bad...)
	}
	var out diag.Diagnostics
	for _, d := range ds {
		if !suppressed(sups, d) {
			out = append(out, d)
		}
	}
	for _, s := range sups {
		if !s.used && s.knownCodes() {
			out = append(out, diag.Diagnostic{Code: codeUnusedSuppression, Severity: diag.Warning, File: s.file, Line: s.line, Col: 1,
				Message: "suppression of " + strings.Join(s.codes, ",") + " matches no finding", Hint: "remove it"})
		}
	}
	return out
}

func suppressed(sups []*suppression, d diag.Diagnostic) bool {
	hit := false
	for _, s := range sups {
		if s.covers(d) {
			s.used, hit = true, true
		}
	}
	return hit
}

// knownCodes reports whether every code exists (unknown ones are VL002 already).
func (s *suppression) knownCodes() bool {
	for _, c := range s.codes {
		if _, ok := RuleByCode(diag.Code(c)); !ok {
			return false
		}
	}
	return true
}
