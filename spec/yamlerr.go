package spec

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// yamlPosRE is the position yaml.v3 puts before its messages.
var yamlPosRE = regexp.MustCompile(`^line (\d+): `)

// parserProblems are the messages of yaml.v3's parser (parserc.go), as
// opposed to its scanner. yaml.v3 reports the parser's 0-based line as is
// (only scanner errors get +1), so a parser error says "line 1" for a
// problem on line 2, and nothing at all for one on the first line.
var parserProblems = []string{
	"did not find expected <", "did not find expected key", "did not find expected node content",
	"did not find expected '-' indicator", "did not find expected ','",
	"found duplicate %", "found incompatible YAML document", "found undefined tag handle",
}

func isParserProblem(msg string) bool {
	for _, p := range parserProblems {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// syntaxDiag turns a yaml.v3 parse error into a diagnostic at the line (and,
// where the problem can be found in data, the column) it is about.
func syntaxDiag(file string, data []byte, err error) diag.Diagnostic {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	d := diag.Diagnostic{Code: CodeSyntax, Severity: diag.Error, File: file, Line: 1}
	if m := yamlPosRE.FindStringSubmatch(msg); m != nil {
		d.Line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
		if isParserProblem(msg) {
			d.Line++
		}
	}
	d.Message = "invalid YAML: " + msg
	locateProblem(&d, data, msg)
	locateUnclosed(&d, data, msg)
	return d
}

// decodeDiag turns one message of a yaml.TypeError (decoding the parsed
// node tree, whose 1-based lines are right) into a diagnostic.
func decodeDiag(file, msg string) diag.Diagnostic {
	d := diag.Diagnostic{Code: CodeDecode, Severity: diag.Error, File: file, Line: 1}
	if m := yamlPosRE.FindStringSubmatch(msg); m != nil {
		d.Line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	d.Message = "wrong type: " + msg
	return d
}

// locateProblem finds in data the problems yaml.v3 reports without a
// position: an unknown alias, a control character, a tab in indentation.
func locateProblem(d *diag.Diagnostic, data []byte, msg string) {
	switch {
	case strings.HasPrefix(msg, "unknown anchor '"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		if i := bytes.Index(data, []byte("*"+name)); i >= 0 {
			d.Line, d.Col = lineCol(data, i)
		}
		d.Hint = "define the anchor (&" + name + ") before the alias (*" + name + ") that uses it"
	case msg == "control characters are not allowed":
		if i := bytes.IndexFunc(data, isControl); i >= 0 {
			d.Line, d.Col = lineCol(data, i)
			d.Message += " (byte " + strconv.QuoteRuneToASCII(rune(data[i])) + ")"
		}
	case msg == "found unexpected end of stream":
		d.Hint = "a quote, bracket or brace opened at or after this line is not closed"
	case strings.HasPrefix(msg, "found character that cannot start any token") || strings.Contains(msg, "tab character"):
		if i := tabInIndent(data, d.Line); i >= 0 {
			d.Line, d.Col = lineCol(data, i)
			d.Hint = "indent with spaces; YAML does not allow tabs in indentation"
		}
	}
}

// isControl reports the characters YAML does not allow in a document.
func isControl(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f
}

// tabInIndent is the offset of the first tab in the leading whitespace of
// a line at or after the 1-based line (yaml.v3 may report the line where
// the enclosing value starts), or -1.
func tabInIndent(data []byte, line int) int {
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return -1
		}
		start += i + 1
	}
	atLineStart := true
	for i := start; i < len(data); i++ {
		switch c := data[i]; {
		case c == '\n':
			atLineStart = true
		case c == '\t' && atLineStart:
			return i
		case c != ' ':
			atLineStart = false
		}
	}
	return -1
}

// lineCol is the 1-based line and column (in characters) of a byte offset.
func lineCol(data []byte, off int) (int, int) {
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, len([]rune(string(before[lineStart:]))) + 1
}
