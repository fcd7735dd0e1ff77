package spec

import (
	"bytes"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// flowProblems are the parser messages about a flow collection ('[', '{')
// the document leaves open: yaml.v3 reports them at the end of the input
// (or where the next block line breaks the collection), past the last line
// when the file ends with a newline, and without a column.
var flowProblems = []string{
	"did not find expected node content", "did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"found unexpected end of stream",
}

// locateUnclosed points a flow problem at the bracket or brace that is
// not closed (qa44b F16: "model: [" on line 3 was reported at line 4, an
// empty line past the end, with no column); with no open one found, a
// line past the last non-empty line is moved back to that line.
func locateUnclosed(d *diag.Diagnostic, data []byte, msg string) {
	if !hasPrefixAny(msg, flowProblems) {
		return
	}
	if off := unclosedFlow(data); off >= 0 {
		d.Line, d.Col = lineCol(data, off)
		d.Hint = "this " + string(data[off]) + " is not closed: close it with " + closer(data[off]) + ", or write the value as a block"
		return
	}
	if last := lastContentLine(data); last > 0 && d.Line > last {
		d.Line, d.Col = last, 0
	}
}

func hasPrefixAny(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func closer(open byte) string {
	if open == '[' {
		return "]"
	}
	return "}"
}

// unclosedFlow is the offset of the first '[' or '{' left open at the end
// of data, read as YAML flow syntax: brackets inside quoted scalars and
// comments do not count, and a bracket only opens a collection where a
// value can start (after ':', ',', '-', another bracket or a line start),
// so "a[0]" in a plain scalar is not one; -1 when every one is closed.
func unclosedFlow(data []byte) int {
	var stack []int
	var quote byte
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case quote != 0:
			if c == quote && (quote != '"' || data[i-1] != '\\') {
				quote = 0
			}
		case c == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n'):
			if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(data)
			}
		case (c == '"' || c == '\'') && valueStart(data, i):
			quote = c
		case (c == '[' || c == '{') && valueStart(data, i):
			stack = append(stack, i)
		case (c == ']' || c == '}') && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) == 0 {
		return -1
	}
	return stack[0]
}

// valueStart reports whether a token at data[i] begins a value: the
// previous non-blank character is a line start or an indicator.
func valueStart(data []byte, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch data[j] {
		case ' ', '\t':
			continue
		case '\n', ':', ',', '-', '[', '{', '?':
			return true
		}
		return false
	}
	return true
}

// lastContentLine is the 1-based number of the last line holding more
// than blanks (0 for an empty document).
func lastContentLine(data []byte) int {
	lines := strings.Split(string(data), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			return i + 1
		}
	}
	return 0
}
