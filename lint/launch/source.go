package launch

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// source is text the shell parser reads: a whole file, or a string found in
// one (a `sh -c` body, a here-document, a manifest scalar). at maps a byte
// offset in data back to the position in the user's file.
type source struct {
	file  string
	data  []byte
	lines []int // start offset of each line, for whole files
	sub   []Pos // position of each byte, for derived text
	// bom is set when the file began with a UTF-8 byte-order mark (blanked in data).
	bom bool
	// ph are the placeholder spans, blanked in data; orig keeps their text.
	ph   []span
	orig []byte
	// posFile, for an input another one sources (followSource), is the
	// file its positions are in (Pos.File).
	posFile string
}

func newFileSource(file string, data []byte, yaml bool) *source {
	s := &source{file: file, lines: []int{0}}
	s.setText(data, yaml)
	for i, b := range data {
		if b == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	return s
}

// newSubSource makes a source from derived text whose bytes have known positions.
func newSubSource(file string, v Value) *source {
	s := &source{file: file, sub: fillPos(v)}
	s.setText([]byte(v.Text), false)
	return s
}

// setText keeps data and the copy the parsers read, placeholders blanked.
func (s *source) setText(data []byte, yaml bool) {
	s.orig = data
	s.ph = findPlaceholders(data, yaml)
	s.data = blankPlaceholders(data, s.ph)
}

// addByte appends the source byte at offset off to b: the original byte,
// and for a placeholder the mark that the value is unresolved.
func (s *source) addByte(b *builder, off int, c byte, p Pos) {
	if sp, ok := placeholderAt(s.ph, off); ok && off < len(s.orig) {
		n := len(b.b)
		b.addByte(s.orig[off], p)
		b.hole(n, len(b.b))
		b.unknown = true
		b.unresolved = appendUnique(b.unresolved, string(s.orig[sp.start:sp.end]))
		return
	}
	b.addByte(c, p)
}

// placeholderNames lists the distinct placeholders of the source that keep
// accepts, in order, with the position of the first.
func (s *source) placeholderNames(keep func(string) bool) ([]string, Pos) {
	var names []string
	var at Pos
	for _, sp := range s.ph {
		text := string(s.orig[sp.start:sp.end])
		if !keep(text) {
			continue
		}
		if len(names) == 0 {
			at = s.at(sp.start)
		}
		names = appendUnique(names, strings.TrimSpace(text))
	}
	return names, at
}

// offsetOf returns the byte offset of a line/column position in a whole
// file (-1 when unknown or for derived text).
func (s *source) offsetOf(p Pos) int {
	if s.sub != nil || p.Line < 1 || p.Line > len(s.lines) {
		return -1
	}
	return s.lines[p.Line-1] + p.Col - 1
}

// fillPos returns a position for every byte of v, using v.Pos where unknown.
func fillPos(v Value) []Pos {
	out := make([]Pos, len(v.Text)+1)
	for i := range out {
		out[i] = v.PosAt(i)
	}
	if n := len(v.Text); n > 0 {
		out[n] = v.PosAt(n - 1)
		out[n].Col++
	}
	return out
}

// at returns the user-file position of byte offset off.
func (s *source) at(off int) Pos {
	if s.sub != nil {
		if len(s.sub) == 0 {
			return Pos{}
		}
		if off >= len(s.sub) {
			off = len(s.sub) - 1
		}
		return s.sub[off]
	}
	i := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{Line: i + 1, Col: off - s.lines[i] + 1, File: s.posFile}
}

// pos converts a parser position.
func (s *source) pos(p syntax.Pos) Pos {
	if !p.IsValid() {
		return Pos{}
	}
	return s.at(int(p.Offset()))
}

// text returns the raw source between two parser positions.
func (s *source) text(from, to syntax.Pos) string {
	a, b := int(from.Offset()), int(to.Offset())
	if !from.IsValid() || !to.IsValid() || a > b || b > len(s.data) {
		return ""
	}
	return string(s.data[a:b])
}

// builder accumulates a Value byte by byte with positions.
type builder struct {
	b          []byte
	pos        []Pos
	unresolved []string
	unknown    bool
	started    bool
	// holes are the byte ranges of b that are unresolved (Value.holes);
	// opaque says they are not the only ones (a value cut at maxValueBytes).
	holes  [][2]int
	opaque bool
	// fromDefaults collects Value.FromDefaults of what was added.
	fromDefaults []string
}

// hole marks b[start:end] as unresolved, merging with the previous range.
func (b *builder) hole(start, end int) {
	if start >= end {
		return
	}
	if n := len(b.holes); n > 0 && b.holes[n-1][1] >= start {
		b.holes[n-1][1] = max(b.holes[n-1][1], end)
		return
	}
	b.holes = append(b.holes, [2]int{start, end})
}

// maxValueBytes caps one resolved value. A hostile script can double a
// variable with each assignment (A=$A$A) and grow it exponentially; past the
// cap the value is treated as unresolved instead of exhausting memory.
const maxValueBytes = 1 << 16

// tooLong is what Unresolved names for a value cut at maxValueBytes.
const tooLong = "(value longer than 64 KiB)"

func (b *builder) addByte(c byte, p Pos) {
	if len(b.b) >= maxValueBytes {
		b.unknown, b.started, b.opaque = true, true, true
		b.unresolved = appendUnique(b.unresolved, tooLong)
		return
	}
	b.b = append(b.b, c)
	b.pos = append(b.pos, p)
	b.started = true
}

// addValue appends v, keeping its positions and what it could not resolve.
func (b *builder) addValue(v Value) {
	n := len(b.b)
	for i := 0; i < len(v.Text) && len(b.b) <= maxValueBytes; i++ {
		b.addByte(v.Text[i], v.PosAt(i))
	}
	b.started = true
	b.fromDefaults = appendUnique(b.fromDefaults, v.FromDefaults...)
	if !v.Known {
		b.unknown = true
		b.unresolved = appendUnique(b.unresolved, v.Unresolved...)
		switch {
		case !v.partial:
			b.hole(n, max(len(b.b), n+1)) // an empty unknown value still is one
		default:
			for _, h := range v.holes {
				b.hole(n+h[0], n+h[1])
			}
		}
	}
}

func (b *builder) value(start Pos) Value {
	v := Value{Text: string(b.b), Known: !b.unknown, Unresolved: b.unresolved, FromDefaults: b.fromDefaults, pos: b.pos, Pos: start}
	if b.unknown && !b.opaque && len(b.holes) > 0 {
		v.holes, v.partial = b.holes, true
	}
	if len(b.pos) > 0 && b.pos[0].Line > 0 {
		v.Pos = b.pos[0]
	}
	return v
}

func appendUnique(list []string, items ...string) []string {
	for _, it := range items {
		found := false
		for _, l := range list {
			if l == it {
				found = true
				break
			}
		}
		if !found {
			list = append(list, it)
		}
	}
	return list
}

// knownValue makes a resolved Value with every byte at p.
func knownValue(s string, p Pos) Value { return Value{Text: s, Known: true, Pos: p} }

// unknownValue makes an unresolved Value shown as its source form.
func unknownValue(src string, p Pos, names ...string) Value {
	return Value{Text: src, Pos: p, Unresolved: names}
}
