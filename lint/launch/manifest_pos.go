package launch

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"
)

// scalarValue returns a YAML scalar's text with the file position of each
// byte, so findings inside `args: [...]`, a `|` block or a folded
// "double-quoted" string point at the flag (alignScalar). Where the source
// cannot be aligned with the value, bytes of a one-line scalar count from
// its start and a multi-line one points at its start.
func scalarValue(src *source, n *yaml.Node) Value {
	v := Value{Text: n.Value, Known: true, Pos: Pos{Line: n.Line, Col: n.Column}}
	v.pos = make([]Pos, len(n.Value))
	if n.Line > len(src.lines) {
		// yaml.v3 counts a lone CR as a line break, the file's line index
		// does not: the node lies past the lines we know, so every byte
		// points at the last line's start rather than outside the file.
		last := Pos{Line: len(src.lines), Col: 1}
		v.Pos = last
		for i := range v.pos {
			v.pos[i] = last
		}
		return restorePlaceholders(src, v)
	}
	if offs := alignScalar(src, n); offs != nil {
		for i, off := range offs {
			v.pos[i] = src.at(off)
		}
		if len(offs) > 0 {
			v.Pos = v.pos[0]
		}
		return restorePlaceholders(src, v)
	}
	switch n.Style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		blockPositions(src, n, v.pos)
	default:
		off := 0
		if n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle {
			off = 1
		}
		line, col := n.Line, n.Column+off
		for i := range v.pos {
			v.pos[i] = Pos{Line: line, Col: col + i}
		}
		if strings.Contains(n.Value, "\n") || !fitsLine(src, n, off) {
			for i := range v.pos {
				v.pos[i] = v.Pos
			}
		}
	}
	return restorePlaceholders(src, v)
}

// fitsLine reports whether a scalar's value, counted from its start, ends
// on its first line (else it was folded over several).
func fitsLine(src *source, n *yaml.Node, quote int) bool {
	start := nodeOffset(src, n)
	if start < 0 {
		return true // derived text: no lines to compare with
	}
	end := bytes.IndexByte(src.data[start:], '\n')
	return end < 0 || len(n.Value)+quote <= end
}

// restorePlaceholders puts back the placeholder text the YAML parser read
// blanked, and marks the value unresolved.
func restorePlaceholders(src *source, v Value) Value {
	if len(src.ph) == 0 {
		return v
	}
	text := []byte(v.Text)
	for i := range text {
		off := src.offsetOf(v.pos[i])
		sp, ok := placeholderAt(src.ph, off)
		if !ok || off >= len(src.data) || src.data[off] != text[i] {
			continue
		}
		text[i] = src.orig[off]
		v.Known = false
		v.Unresolved = appendUnique(v.Unresolved, string(src.orig[sp.start:sp.end]))
	}
	v.Text = string(text)
	return v
}

// blockPositions maps a block scalar's lines to the source lines after its header.
func blockPositions(src *source, n *yaml.Node, pos []Pos) {
	line := n.Line + 1
	indent := -1
	col := 0
	for i := 0; i < len(n.Value); i++ {
		if indent < 0 {
			indent = lineIndent(src, line)
		}
		pos[i] = Pos{Line: line, Col: indent + 1 + col}
		col++
		if n.Value[i] == '\n' {
			line++
			col = 0
		}
	}
}

// lineIndent returns the indentation of a 1-based source line.
func lineIndent(src *source, line int) int {
	if line-1 >= len(src.lines) {
		return 0
	}
	start := src.lines[line-1]
	i := start
	for i < len(src.data) && src.data[i] == ' ' {
		i++
	}
	return i - start
}
