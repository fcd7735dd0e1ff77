package launch

import (
	"maps"
	"regexp"
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
	// caps are the lines (1-based, ascending) of caption paragraphs
	// (captionLine): weaker than a heading, they section nothing (a
	// shell session runs on past them) but can part alternatives.
	caps []int
}

// mdSection is one ATX heading (# to ######): its line, its level and the
// index of the section it nests in (-1: the document).
type mdSection struct {
	line, level, parent int
	// title is the heading's or tab's text.
	title string
}

// Outline reads a Markdown document's headings outside code blocks: ATX
// (# to ######), setext (a paragraph underlined with === for level 1 or
// --- for level 2; the section starts at the paragraph's first line) and
// content tabs (contentTab, sections below every heading level). A
// --- after a blank line, a list item, a quote or a table row is a
// thematic break or part of that block, not an underline, and a leading
// YAML front matter (--- ... ---) holds no headings.
func Outline(data []byte) *MarkdownOutline {
	code := MarkdownCodeLines(data)
	lines := strings.Split(string(data), "\n")
	inFence := fencedLines(data)
	o := &MarkdownOutline{}
	var open []int // indices of the enclosing sections, outermost first
	para := 0      // first line (1-based) of the paragraph the previous line ended; 0: none
	for i := frontMatterEnd(lines); i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], "\r")
		start, level := i+1, 0
		switch {
		case !inFence[i+1] && indentedTab(raw) > 0:
			level, para = tabLevel+indentedTab(raw), 0
		case code[i+1]:
			para = 0
			continue
		case atxLevel(raw) > 0:
			level, para = atxLevel(raw), 0
		case contentTab(raw):
			level, para = tabLevel, 0
		case para == 0 && captionLine(raw) && paragraphEnds(lines, i+1, code):
			o.caps = append(o.caps, i+1)
			continue
		case para > 0 && setextLevel(raw) > 0:
			start, level, para = para, setextLevel(raw), 0
		case paragraphLine(raw):
			if para == 0 {
				para = i + 1
			}
			continue
		default:
			para = 0
			continue
		}
		for len(open) > 0 && o.secs[open[len(open)-1]].level >= level {
			open = open[:len(open)-1]
		}
		parent := -1
		if len(open) > 0 {
			parent = open[len(open)-1]
		}
		o.secs = append(o.secs, mdSection{line: start, level: level, parent: parent, title: sectionTitle(lines[start-1])})
		open = append(open, len(o.secs)-1)
	}
	if items := listCaptions(lines, inFence); len(items) > 0 {
		o.caps = append(o.caps, items...)
		sort.Ints(o.caps)
	}
	return o
}

// listItem is a list item's marker and text: "1. Prefill node", "- Decode:".
var listItem = regexp.MustCompile(`^\s*(?:\d{1,3}[.)]|[-*+])\s+(\S.*?)\s*$`)

// listCaptions returns the lines of list items that caption the code block
// right below them (only blank lines between): a short title, at most
// eight words and not a sentence (no closing '.', '?' or '!'), as
// vllm-ascend's tutorials give each role its block ("1. Prefill node",
// "2. Decode node" under "Start the server with the following command on
// each node", DeepSeek-V4-Flash 5.2.2: a DP 8 prefill and a DP 32 decode
// launcher, read before as two nodes of one DP deployment). Lines inside
// fenced blocks are not read; a list's indented items are (CommonMark
// would take an item indented four spaces after a blank line for code,
// which these documents do not mean).
func listCaptions(lines []string, inFence map[int]bool) []int {
	var out []int
	for i, raw := range lines {
		if inFence[i+1] {
			continue
		}
		m := listItem.FindStringSubmatch(strings.TrimRight(raw, "\r"))
		if m == nil || !captionText(m[1]) {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) {
			if c, n := fenceRun(strings.TrimSpace(lines[j])); c != 0 && n >= 3 {
				out = append(out, i+1)
			}
		}
	}
	return out
}

// sectionTitle is a heading's or tab's text: without the #s, the ===
// and the quotes.
func sectionTitle(line string) string {
	t := strings.TrimSpace(line)
	t = strings.TrimLeft(t, "#")
	if strings.HasPrefix(t, "===") {
		t = strings.TrimLeft(strings.TrimPrefix(t, "==="), "!+")
	}
	return strings.Trim(strings.TrimSpace(t), `"`)
}

// followerTitle matches a section title that names a node after the
// first: "Node 1", "Node 1(Decode)", "node2", "Worker Node 3".
var followerTitle = regexp.MustCompile(`(?i)\bnode[ _-]?0*[1-9]\d*\b`)

// firstNodeTitle matches a section title naming node 0.
var firstNodeTitle = regexp.MustCompile(`(?i)\bnode[ _-]?0\b`)

// FollowerSection reports a line under a section (heading or tab) whose
// title names a node after the first ("Node 1(Decode)"): a per-node
// recipe's later node, whatever its command shows (vllm-ascend's
// Kimi-K2.5 tutorial: the decode template's rank is "$4", given by the
// launcher, under the tabs "Node 0(Decode)" and "Node 1(Decode)"). Only
// in a document that numbers its nodes from 0 (a section titled "Node
// 0"): where they count from 1 ("Decoder node 1", "Decoder node 2"),
// "node 1" is the first.
func (o *MarkdownOutline) FollowerSection(line int) bool {
	s := o.SectionAt(line)
	if s < 0 || !followerTitle.MatchString(o.secs[s].title) {
		return false
	}
	for _, x := range o.secs {
		if firstNodeTitle.MatchString(x.title) {
			return true
		}
	}
	return false
}

// fencedLines are the content lines of a document's fenced code blocks
// (fences): what is in one is code wherever it is indented.
func fencedLines(data []byte) map[int]bool {
	in := map[int]bool{}
	for _, f := range fences(data) {
		for _, l := range f.lines {
			in[l.no] = true
		}
	}
	return in
}

// indentedTab is the depth (1 for four spaces, 2 for eight, up to 3) of a
// content tab's title indented under a list item or another tab:
// vllm-ascend's DeepSeek-V3.1 tutorial gives its "A3 series" and "Ascend
// 950DT series" launchers as tabs under "3. run server for each node"
// (read before as one deployment: 53 errors between them). Its section
// nests below a tab one level shallower, so a tab set inside a tab stays
// inside it. CommonMark reads such a line after a blank line as indented
// code; MkDocs (pymdownx.tabbed) as a tab, which is what these documents
// mean. 0 for any other line.
func indentedTab(line string) int {
	body := strings.TrimLeft(line, " ")
	n := len(line) - len(body)
	if n == 0 || n%4 != 0 || n > 12 {
		return 0
	}
	if !contentTab(body) {
		return 0
	}
	return n / 4
}

// captionText reports a title rather than a sentence: at most eight
// words, not ending in '.', '?' or '!'.
func captionText(t string) bool {
	t = strings.TrimSpace(t)
	return t != "" && len(strings.Fields(t)) <= 8 && !strings.ContainsAny(t[len(t)-1:], ".?!")
}

// tabLevel is the level of a content tab's section: below every heading,
// so that the tabs of one set are sibling sections of the heading above
// them and the next heading ends them.
const tabLevel = 7

// contentTab reports a content tab's title line (pymdownx.tabbed, as in
// MkDocs Material sites such as docs.vllm.ai and vllm-ascend's tutorials:
// `=== "A3 series"`, then the tab's content indented). Tabs are
// alternatives (A3 and A2 machines, one launcher and another), so each is
// a section of its own. A nested tab's title is indented, code to Outline,
// and not read; content after a tab set, before the next heading, is read
// as the last tab's.
func contentTab(line string) bool {
	body := strings.TrimLeft(line, " ")
	if len(line)-len(body) > 3 || !strings.HasPrefix(body, "===") {
		return false
	}
	rest := strings.TrimLeft(strings.TrimPrefix(body, "==="), "!+")
	return strings.HasPrefix(rest, " \"") || strings.HasPrefix(rest, "\t\"")
}

// captionLine reports a line that is one emphasised span and nothing
// else: `<u>Low latency:</u>`, `<b>…</b>`, `<strong>…</strong>`,
// `**Prefill node:**` or `__…__`. Standing as a paragraph of its own
// (paragraphEnds), it is a caption: documentation written without
// headings below a level titles its alternatives so (vllm-ascend's
// Qwen3-235B-A22B tutorial, "9.1 Recommended Configurations": three
// `<u>Single-node PD Hybrid — …:</u>` captions, each over its own
// `vllm serve` with other TP, DP and limits).
func captionLine(line string) bool {
	body := strings.TrimSpace(line)
	for _, p := range [][2]string{{"<u>", "</u>"}, {"<b>", "</b>"}, {"<strong>", "</strong>"}, {"**", "**"}, {"__", "__"}} {
		lo := strings.ToLower(body)
		if len(body) <= len(p[0])+len(p[1]) || !strings.HasPrefix(lo, p[0]) || !strings.HasSuffix(lo, p[1]) {
			continue
		}
		inner := body[len(p[0]) : len(body)-len(p[1])]
		// One span: the opening mark does not close and reopen inside
		// (`**a** and **b**` is a sentence with two bold words).
		return strings.TrimSpace(inner) != "" && !strings.Contains(strings.ToLower(inner), p[1])
	}
	return false
}

// paragraphEnds reports that the paragraph a line starts ends with it:
// the next line (index next) is blank, code, a fence, a heading or past
// the end.
func paragraphEnds(lines []string, next int, code map[int]bool) bool {
	if next >= len(lines) || code[next+1] || atxLevel(lines[next]) > 0 {
		return true
	}
	body := strings.TrimSpace(lines[next])
	c, n := fenceRun(body)
	return body == "" || (c != 0 && n >= 3)
}

// CaptionAt is the line of the caption (captionLine) a line is under in
// its section: the last one above it and below the section's heading; 0
// for none.
func (o *MarkdownOutline) CaptionAt(line int) int {
	i := sort.SearchInts(o.caps, line) - 1
	if i < 0 || o.caps[i] < o.HeadingLine(o.SectionAt(line)) {
		return 0
	}
	return o.caps[i]
}

// frontMatterEnd is the index of the first line after a YAML front matter
// (a document opening with ---, closed by --- or ...), 0 without one.
func frontMatterEnd(lines []string) int {
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t\r") != "---" {
		return 0
	}
	for i := 1; i < len(lines); i++ {
		if l := strings.TrimRight(lines[i], " \t\r"); l == "---" || l == "..." {
			return i + 1
		}
	}
	return 0
}

// setextLevel is the level a setext underline gives the paragraph above
// it (CommonMark: up to three spaces, then only = or only -, trailing
// spaces allowed): 1 for =, 2 for -, 0 for any other line. A single - is
// not read: it is as likely an empty list item.
func setextLevel(line string) int {
	body := strings.TrimLeft(line, " ")
	if len(line)-len(body) > 3 {
		return 0
	}
	body = strings.TrimRight(body, " \t")
	if body == "" || strings.Trim(body, body[:1]) != "" {
		return 0
	}
	switch {
	case body[0] == '=':
		return 1
	case body[0] == '-' && len(body) >= 2:
		return 2
	}
	return 0
}

// thematicBreak reports a line of three or more *, - or _ (spaces
// between them allowed).
func thematicBreak(body string) bool {
	t := strings.Join(strings.Fields(body), "")
	return len(t) >= 3 && strings.Trim(t, t[:1]) == "" && strings.ContainsRune("*-_", rune(t[0]))
}

// paragraphLine reports a line that can be (part of) a setext heading's
// text: not blank, indented under four spaces, and not a list item, quote,
// table row, HTML line, fence, underline or thematic break.
func paragraphLine(line string) bool {
	body := strings.TrimLeft(line, " ")
	if strings.TrimSpace(body) == "" || len(line)-len(body) > 3 || setextLevel(line) > 0 || thematicBreak(body) {
		return false
	}
	if c, n := fenceRun(body); c != 0 && n >= 3 {
		return false
	}
	switch body[0] {
	case '>', '|', '<', '\t':
		return false
	case '-', '*', '+':
		if len(body) == 1 || body[1] == ' ' || body[1] == '\t' {
			return false
		}
	}
	if n := len(body) - len(strings.TrimLeft(body, "0123456789")); n > 0 && n < 10 && n < len(body) &&
		(body[n] == '.' || body[n] == ')') && (n+1 == len(body) || body[n+1] == ' ') {
		return false
	}
	return true
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

// Parent is the section s nests in (-1: the document).
func (o *MarkdownOutline) Parent(s int) int {
	if s < 0 || s >= len(o.secs) {
		return -1
	}
	return o.secs[s].parent
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
//   - except that a section whose blocks only set variables or define
//     shell functions (an "Environment on a prefill worker" section, a
//     "Helpers" section defining `serve() { vllm serve ...; }`) is a step
//     for the sections after it at its level: its environment and its
//     functions carry into its later sibling sections and what nests in
//     them, until its parent section ends. Its own subsections and a deeper section are not
//     given it: a block before a section's subsections introduces them,
//     and they are as often variants it does not hold for. A variable
//     missed costs a skipped check; a variable wrongly assumed, a false
//     error.
//
// Shell functions follow the same rule as variables: a function defined in
// one alternative (the AMD section's `serve()`) is not the one another
// alternative calls.
type mdSessions struct {
	outline *MarkdownOutline
	// end is each section's shell when the section was last left, setup
	// its having only set variables (nil and false for a section with no
	// shell block).
	end   map[int]*scope
	setup map[int]bool
	// endFuncs are each section's shell functions when it was last left.
	endFuncs map[int]map[string]*syntax.FuncDecl
	cur      int
	sc       *scope
	funcs    map[string]*syntax.FuncDecl
}

func newMDSessions(o *MarkdownOutline) *mdSessions {
	return &mdSessions{outline: o, end: map[int]*scope{}, setup: map[int]bool{},
		endFuncs: map[int]map[string]*syntax.FuncDecl{}, cur: -2}
}

// scopeFor is the shell a block starting at line runs in: its variables
// and its functions (the walker defines new ones in that map).
func (m *mdSessions) scopeFor(line int) (*scope, map[string]*syntax.FuncDecl) {
	s := m.outline.SectionAt(line)
	if s == m.cur && m.sc != nil {
		return m.sc, m.funcs
	}
	m.cur = s
	m.sc, m.funcs = m.carried(s)
	if _, seen := m.setup[s]; !seen {
		m.setup[s] = true // until a block that does more than define
	}
	return m.sc, m.funcs
}

// ran records what a block of the current section did: its shell after
// it, and whether it did anything but set variables.
func (m *mdSessions) ran(f *syntax.File) {
	m.end[m.cur], m.endFuncs[m.cur] = m.sc, m.funcs
	if f == nil || !onlyDefines(f.Stmts) {
		m.setup[m.cur] = false
	}
}

// carried is the shell a section starts with: a copy of the latest
// setup-only section's (variables and functions) among its earlier
// siblings and its ancestors' earlier siblings (mdSessions), or an empty
// shell.
func (m *mdSessions) carried(s int) (*scope, map[string]*syntax.FuncDecl) {
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
		return newScope(), map[string]*syntax.FuncDecl{}
	}
	return m.end[best].clone(), maps.Clone(m.endFuncs[best])
}

// onlyDefines reports statements that only set variables (VAR=x, export,
// declare, readonly, unset) or define functions, with nothing run in the
// background: a setup step, which starts nothing itself.
func onlyDefines(stmts []*syntax.Stmt) bool {
	for _, st := range stmts {
		if st.Background || st.Coprocess || st.Negated {
			return false
		}
		switch c := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(c.Args) > 0 && c.Args[0].Lit() != "unset" {
				return false
			}
		case *syntax.DeclClause, *syntax.FuncDecl:
		default:
			return false
		}
	}
	return true
}
