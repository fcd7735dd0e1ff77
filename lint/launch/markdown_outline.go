package launch

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MarkdownOutline is the heading structure of a Markdown document: which
// section each line belongs to and how sections nest. A recipe lays out
// alternatives (NVIDIA and AMD, aggregated and disaggregated) as sections,
// so the linter reads a section as a unit of its own.
type MarkdownOutline struct {
	secs []mdSection
}

// mdSection is one ATX heading (# to ######): its line, its level and the
// index of the section it nests in (-1: the document).
type mdSection struct {
	line, level, parent int
}

// Outline reads a Markdown document's ATX headings (outside code blocks).
// Setext headings (a line underlined with === or ---) are not read: ---
// is also a thematic break, and recipes write ATX headings.
func Outline(data []byte) *MarkdownOutline {
	code := MarkdownCodeLines(data)
	o := &MarkdownOutline{}
	var open []int // indices of the enclosing sections, outermost first
	for i, raw := range strings.Split(string(data), "\n") {
		if code[i+1] {
			continue
		}
		level := atxLevel(raw)
		if level == 0 {
			continue
		}
		for len(open) > 0 && o.secs[open[len(open)-1]].level >= level {
			open = open[:len(open)-1]
		}
		parent := -1
		if len(open) > 0 {
			parent = open[len(open)-1]
		}
		o.secs = append(o.secs, mdSection{line: i + 1, level: level, parent: parent})
		open = append(open, len(o.secs)-1)
	}
	return o
}

// atxLevel is the level of an ATX heading line (CommonMark: up to three
// spaces, 1 to 6 #, then a space or the end of the line), 0 for any other.
func atxLevel(line string) int {
	line = strings.TrimRight(line, "\r")
	body := strings.TrimLeft(line, " ")
	if len(line)-len(body) > 3 {
		return 0
	}
	n := 0
	for n < len(body) && body[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(body) && body[n] != ' ' && body[n] != '\t') {
		return 0
	}
	return n
}

// SectionAt is the index of the section a line (1-based) is in: the last
// heading above it; -1 before the first heading.
func (o *MarkdownOutline) SectionAt(line int) int {
	return sort.Search(len(o.secs), func(i int) bool { return o.secs[i].line >= line }) - 1
}

// Within reports whether section s is section outer or nested in it; every
// section is within the document (-1).
func (o *MarkdownOutline) Within(s, outer int) bool {
	for ; s >= 0; s = o.secs[s].parent {
		if s == outer {
			return true
		}
	}
	return outer == -1
}

// Common is the innermost section that holds both sections a and b (-1:
// only the whole document).
func (o *MarkdownOutline) Common(a, b int) int {
	for ; a >= 0; a = o.secs[a].parent {
		if o.Within(b, a) {
			return a
		}
	}
	return -1
}

// HeadingLine is the line of section s's heading (0 for the document).
func (o *MarkdownOutline) HeadingLine(s int) int {
	if s < 0 || s >= len(o.secs) {
		return 0
	}
	return o.secs[s].line
}

// mdSessions decides which shell session each block of a Markdown
// document runs in. The rule, as a reader of a recipe applies it:
//   - blocks under one heading (no heading between them) are one shell:
//     a variable exported in one is set in the next;
//   - a heading starts a new shell: sections are alternatives (the NVIDIA
//     and the AMD command, the aggregated and the disaggregated setup) or
//     other machines, and an export in one says nothing of the other
//     (QA41: `export CUDA_VISIBLE_DEVICES=0` of a GB200 P/D worker read
//     into the AMD section's TP=8 engine);
//   - except that a section whose blocks only set variables (an
//     "Environment on a prefill worker" section) is a step for the
//     sections after it at its level: its environment carries into its
//     later sibling sections and what nests in them, until its parent
//     section ends. Its own subsections and a deeper section are not
//     given it: a block before a section's subsections introduces them,
//     and they are as often variants it does not hold for. A variable
//     missed costs a skipped check; a variable wrongly assumed, a false
//     error.
type mdSessions struct {
	outline *MarkdownOutline
	// end is each section's shell when the section was last left, setup
	// its having only set variables (nil and false for a section with no
	// shell block).
	end   map[int]*scope
	setup map[int]bool
	cur   int
	sc    *scope
}

func newMDSessions(o *MarkdownOutline) *mdSessions {
	return &mdSessions{outline: o, end: map[int]*scope{}, setup: map[int]bool{}, cur: -2}
}

// scopeFor is the shell a block starting at line runs in.
func (m *mdSessions) scopeFor(line int) *scope {
	s := m.outline.SectionAt(line)
	if s == m.cur && m.sc != nil {
		return m.sc
	}
	m.cur, m.sc = s, m.carried(s)
	if _, seen := m.setup[s]; !seen {
		m.setup[s] = true // until a block that does more than assign
	}
	return m.sc
}

// ran records what a block of the current section did: its shell after
// it, and whether it did anything but set variables.
func (m *mdSessions) ran(f *syntax.File) {
	m.end[m.cur] = m.sc
	if f == nil || !onlyAssigns(f.Stmts) {
		m.setup[m.cur] = false
	}
}

// carried is the shell a section starts with: a copy of the latest
// setup-only section's among its earlier siblings and its ancestors'
// earlier siblings (mdSessions), or an empty shell.
func (m *mdSessions) carried(s int) *scope {
	best := -1
	for a := s; a >= 0; a = m.outline.secs[a].parent {
		parent := m.outline.secs[a].parent
		for p := a - 1; p > best; p-- {
			if m.outline.secs[p].parent == parent && m.setup[p] && m.end[p] != nil {
				best = p
				break
			}
		}
	}
	if best < 0 {
		return newScope()
	}
	return m.end[best].clone()
}

// onlyAssigns reports statements that only set variables (VAR=x, export,
// declare, readonly, unset), with nothing run in the background.
func onlyAssigns(stmts []*syntax.Stmt) bool {
	for _, st := range stmts {
		if st.Background || st.Coprocess || st.Negated {
			return false
		}
		switch c := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(c.Args) > 0 && c.Args[0].Lit() != "unset" {
				return false
			}
		case *syntax.DeclClause:
		default:
			return false
		}
	}
	return true
}
