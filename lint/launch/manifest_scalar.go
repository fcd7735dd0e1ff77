package launch

import (
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// alignScalar maps every byte of a scalar's value to the byte offset in the
// source it was read from, or returns nil when the source does not read as
// the value (then the caller falls back to coarser positions). YAML rewrites
// a scalar on the way in — quoted and plain scalars fold a line break into
// a space (blank lines into newlines) and drop the blanks around it,
// double-quoted ones decode escapes and join an escaped line break without
// a space, folded blocks fold too — so the n-th byte of the value is not the
// n-th byte after the scalar's start. The walk is driven by the value that
// yaml.v3 produced, so that every byte is accounted for or the mapping is
// refused: a wrong position is worse than a coarse one.
func alignScalar(src *source, n *yaml.Node) []int {
	start := nodeOffset(src, n)
	if start < 0 || start >= len(src.data) {
		return nil
	}
	if src.data[start] == '!' { // an explicit tag (!!str) precedes the text
		for start < len(src.data) && !isBlank(src.data[start]) && !isBreakAt(src.data, start) {
			start++
		}
		for start < len(src.data) && isBlank(src.data[start]) {
			start++
		}
		if start >= len(src.data) {
			return nil
		}
	}
	a := &aligner{data: src.data, out: n.Value, offs: make([]int, len(n.Value))}
	switch style := n.Style &^ yaml.TaggedStyle; style {
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		if q := src.data[start]; q != '"' && q != '\'' {
			return nil
		}
		a.j, a.double, a.single = start+1, style == yaml.DoubleQuotedStyle, style == yaml.SingleQuotedStyle
		return a.flow()
	case yaml.LiteralStyle, yaml.FoldedStyle:
		return a.block(start, style == yaml.FoldedStyle)
	case 0:
		a.j = start
		return a.flow()
	}
	return nil
}

// nodeOffset converts a node's line and column (yaml.v3 counts columns in
// characters) to a byte offset in a whole-file source; -1 when unknown.
func nodeOffset(src *source, n *yaml.Node) int {
	if src.sub != nil || n.Line < 1 || n.Line > len(src.lines) || n.Column < 1 {
		return -1
	}
	off := src.lines[n.Line-1]
	for c := 1; c < n.Column; c++ {
		if off >= len(src.data) || src.data[off] == '\n' {
			return -1
		}
		_, w := utf8.DecodeRune(src.data[off:])
		off += w
	}
	return off
}

// aligner walks the source (data from j) and the value (out from i) in step.
type aligner struct {
	data           []byte
	j              int
	out            string
	i              int
	offs           []int
	double, single bool
}

// emit matches the value's next bytes against s, all read at offset at.
func (a *aligner) emit(s string, at int) bool {
	if len(a.out)-a.i < len(s) || a.out[a.i:a.i+len(s)] != s {
		return false
	}
	for k := 0; k < len(s); k++ {
		a.offs[a.i] = at
		a.i++
	}
	return true
}

// emitByte matches the value's next byte against the source byte at at.
func (a *aligner) emitByte(at int) bool {
	if a.i >= len(a.out) || a.out[a.i] != a.data[at] {
		return false
	}
	a.offs[a.i] = at
	a.i++
	return true
}

// flow aligns a plain or quoted scalar.
func (a *aligner) flow() []int {
	for a.i < len(a.out) {
		if a.j >= len(a.data) {
			return nil
		}
		c := a.data[a.j]
		var ok bool
		switch {
		case a.double && c == '\\':
			ok = a.escape()
		case a.single && c == '\'' && a.j+1 < len(a.data) && a.data[a.j+1] == '\'':
			ok = a.emit("'", a.j)
			a.j += 2
		case isBlank(c) || isBreakAt(a.data, a.j):
			ok = a.blanks()
		default:
			ok = a.emitByte(a.j)
			a.j++
		}
		if !ok {
			return nil
		}
	}
	return a.offs
}

// blanks handles a run of spaces and tabs: kept as written inside a line,
// folded with the line break that ends it (the blanks before a break and
// the indentation after it are dropped; one break becomes a space, n
// breaks n-1 newlines).
func (a *aligner) blanks() bool {
	k := a.j
	for k < len(a.data) && isBlank(a.data[k]) {
		k++
	}
	if !isBreakAt(a.data, k) {
		for ; a.j < k; a.j++ {
			if !a.emitByte(a.j) {
				return false
			}
		}
		return true
	}
	at := k
	a.j = skipBreak(a.data, k)
	extra := a.skipEmptyLines()
	if extra == 0 {
		return a.emit(" ", at)
	}
	return a.emit(repeatNewline(extra), at)
}

// skipEmptyLines skips indentation and blank lines after a line break and
// returns how many further line breaks it passed.
func (a *aligner) skipEmptyLines() int {
	n := 0
	for a.j < len(a.data) {
		switch {
		case isBlank(a.data[a.j]):
			a.j++
		case isBreakAt(a.data, a.j):
			a.j = skipBreak(a.data, a.j)
			n++
		default:
			return n
		}
	}
	return n
}

// simpleEscapes are the one-character escapes of double-quoted YAML.
var simpleEscapes = map[byte]string{'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", '\t': "\t", 'n': "\n",
	'v': "\v", 'f': "\f", 'r': "\r", 'e': "\x1b", ' ': " ", '"': `"`, '\'': "'", '\\': `\`,
	'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029"}

// escape handles a backslash in a double-quoted scalar: an escaped line
// break joins the lines with nothing between them (blank lines after it
// still give newlines), other escapes decode to their character.
func (a *aligner) escape() bool {
	at := a.j
	if a.j+1 >= len(a.data) {
		return false
	}
	c := a.data[a.j+1]
	if isBreakAt(a.data, a.j+1) {
		a.j = skipBreak(a.data, a.j+1)
		return a.emit(repeatNewline(a.skipEmptyLines()), at)
	}
	if s, ok := simpleEscapes[c]; ok {
		a.j += 2
		return a.emit(s, at)
	}
	width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
	if width == 0 || a.j+2+width > len(a.data) {
		return false
	}
	r := rune(0)
	for _, h := range a.data[a.j+2 : a.j+2+width] {
		d := hexDigit(h)
		if d < 0 {
			return false
		}
		r = r<<4 | rune(d)
	}
	a.j += 2 + width
	return a.emit(string(r), at)
}

// block aligns a literal or folded block scalar whose indicator is at
// start: the content starts on the next line, each line's indentation (the
// first content line's) is not part of the value, and a line break is a
// newline — or, folded, possibly a space or nothing.
func (a *aligner) block(start int, folded bool) []int {
	a.j = start
	for a.j < len(a.data) && !isBreakAt(a.data, a.j) {
		a.j++
	}
	if a.j >= len(a.data) {
		return nil
	}
	a.j = skipBreak(a.data, a.j)
	indent := blockIndent(a.data, a.j)
	lineStart := true
	for a.i < len(a.out) {
		if lineStart {
			for k := 0; k < indent && a.j < len(a.data) && a.data[a.j] == ' '; k++ {
				a.j++
			}
			lineStart = false
		}
		if a.j >= len(a.data) {
			return nil
		}
		if isBreakAt(a.data, a.j) {
			at := a.j
			a.j, lineStart = skipBreak(a.data, a.j), true
			if o := a.out[a.i]; o == '\n' || (folded && o == ' ') {
				a.offs[a.i] = at
				a.i++
			} else if !folded {
				return nil
			}
			continue
		}
		if !a.emitByte(a.j) {
			return nil
		}
		a.j++
	}
	return a.offs
}

// blockIndent is the indentation of the first non-blank line from off.
func blockIndent(data []byte, off int) int {
	for off < len(data) {
		n := 0
		for off+n < len(data) && data[off+n] == ' ' {
			n++
		}
		if off+n < len(data) && !isBreakAt(data, off+n) {
			return n
		}
		off += n
		if off >= len(data) {
			break
		}
		off = skipBreak(data, off)
	}
	return 0
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isBreakAt reports a line break (LF, CR or CRLF) at off.
func isBreakAt(data []byte, off int) bool {
	return off < len(data) && (data[off] == '\n' || data[off] == '\r')
}

// skipBreak returns the offset after the line break at off (CRLF is one).
func skipBreak(data []byte, off int) int {
	if data[off] == '\r' && off+1 < len(data) && data[off+1] == '\n' {
		return off + 2
	}
	return off + 1
}

func repeatNewline(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '\n'
	}
	return string(b)
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
