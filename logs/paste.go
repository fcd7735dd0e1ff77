package logs

import (
	"bytes"
	"unicode/utf8"
)

// A log pasted through Markdown or HTML (a GitHub issue typed outside a
// code block, a forum page, a chat export) can carry the page's own
// encoding on top of the capture tool's wrappers:
//
//   - Markdown backslash escapes (CommonMark §2.4): "\[gpu\_worker.py:436]",
//     "(EngineCore\_DP0 pid=7)", "\_\_init\_\_";
//   - HTML character references: "&gt; INFO", "{&#39;model&#39;: ...}";
//   - a hard wrap at the terminal's or page's width, one logical line cut
//     into several physical ones.
//
// pasteReader undoes these before the line parser sees the line, as one
// step for every rule. It decodes only once the capture shows the form in
// a way a plain vLLM log never does (an escaped bracket right after
// vLLM's timestamp, an escaped underscore in a process prefix, an
// entity-encoded quote in Python's repr syntax): a real log line may hold
// '\_' (a Windows path) or '&' (a URL) and is then left as it is. The
// evidence is looked for in the head of the file before the first line
// is read, so that a paste is decoded from its first line, and in every
// later line, so that a paste further down a capture is decoded from
// where it shows. A hard wrap is recognised from the head alone (many
// lines exactly as long as the longest): a line of that width is joined
// with the next when the next does not start a log line, and the joined
// line keeps the number of its first physical line.
type pasteReader struct {
	lr *lineReader
	// md and html are set once the capture showed Markdown escapes or
	// HTML character references; width is the hard wrap's width in
	// characters, 0 while the lines read show none.
	md, html bool
	width    int
	// strip is the prefix every line of the head has when the whole paste
	// is a Markdown list item ("- ") or an indented code block (four
	// spaces): it is removed from every line that has it.
	strip []byte
	// ahead holds the physical lines read ahead of the one being returned
	// (pasteHeadBytes of them while the input lasts), ahead[at:] being
	// those not yet returned; aheadBytes is their size. The wrap figures
	// (stats) are those of these lines: a hard wrap is recognised in any
	// pasteHeadBytes of the input, not only its head, and before the
	// first wrapped line is returned; the input is read once, at most
	// pasteHeadBytes ahead (QA left 39 #4: a pip or docker preamble longer
	// than the head hid a wrapped engine log behind it).
	ahead      []physLine
	at         int
	aheadBytes int
	eof        bool
	sniffed    bool
	stats      wrapStats
	// pending is a physical line read ahead of its turn (the line after a
	// full-width one that did not continue it), pno its number.
	pending []byte
	pno     int
	held    bool
	joined  []byte
	dec     []byte
	dec2    []byte
	// joins counts physical lines joined to the one before.
	joins int
}

// physLine is a physical line read ahead, its number and its share of
// the wrap figures: its visible width, whether it is blank, and whether it
// continues the line before it (cont) without starting as it starts
// (unlike), counted to that line's width.
type physLine struct {
	b            []byte
	no, w        int
	blank        bool
	cont, unlike bool
}

// pasteHeadBytes is how much of a file is looked at for the paste's form
// before its first line is read, and how far ahead of the line it returns
// the reader looks for a hard wrap while none has been found.
const pasteHeadBytes = 64 << 10

func newPasteReader(lr *lineReader) *pasteReader {
	pr := &pasteReader{lr: lr}
	pr.fill()
	return pr
}

// fill reads lines ahead until pasteHeadBytes are held or the input ends.
// The first time, the head's lines (those ending within its first
// pasteHeadBytes) decide the paste's form (sniff); after that a hard wrap
// the lines held show is taken as soon as they show it (wrapSeen).
func (pr *pasteReader) fill() {
	for !pr.eof && pr.aheadBytes < pasteHeadBytes {
		r, ok := pr.lr.next()
		if !ok {
			pr.eof = true
			break
		}
		if !pr.sniffed && pr.aheadBytes+len(r)+1 > pasteHeadBytes {
			pr.sniff()
		}
		var b []byte
		if n := len(pr.ahead); n < cap(pr.ahead) {
			b = pr.ahead[:n+1][n].b[:0] // a returned line's buffer, reused
		}
		b = append(b, r...)
		pr.ahead = append(pr.ahead, physLine{b: b, no: pr.lr.no})
		pr.aheadBytes += len(b) + 1
		if !pr.sniffed {
			pr.evidence(b)
			pr.stats.prefixes(b)
		}
		if !pr.stats.done {
			pr.count(len(pr.ahead) - 1)
		}
	}
	if !pr.sniffed {
		pr.sniff()
	}
}

// count adds the line ahead[i] (the last read) to the wrap figures.
func (pr *pasteReader) count(i int) {
	s, l := &pr.stats, &pr.ahead[i]
	if s.widths == nil {
		s.widths, s.cont, s.unlike = map[int]int{}, map[int]int{}, map[int]int{}
	}
	l.w, l.blank = visibleWidth(l.b), len(bytes.TrimSpace(l.b)) == 0
	if !l.blank {
		s.lines++
	}
	if l.w >= minWrapWidth {
		s.widths[l.w]++
		s.maxw = max(s.maxw, l.w)
	}
	if i > pr.at {
		p := &pr.ahead[i-1]
		if p.w >= minWrapWidth && continuesWrap(l.b) {
			l.cont = true
			s.cont[p.w]++
			if !(len(l.b) >= 4 && len(p.b) >= 4 && bytes.Equal(l.b[:4], p.b[:4])) {
				l.unlike = true
				s.unlike[p.w]++
			}
			pr.wrapSeen(p.w)
		}
	}
}

// uncount removes the line ahead[at] (about to be returned) from the wrap
// figures, with its pairing to the line after it.
func (pr *pasteReader) uncount() {
	s, l := &pr.stats, &pr.ahead[pr.at]
	if !l.blank {
		s.lines--
	}
	if l.w < minWrapWidth {
		return
	}
	if s.widths[l.w]--; s.widths[l.w] == 0 {
		delete(s.widths, l.w)
		if l.w == s.maxw {
			s.maxw = 0
			for w := range s.widths {
				s.maxw = max(s.maxw, w)
			}
		}
	}
	if pr.at+1 < len(pr.ahead) {
		n := &pr.ahead[pr.at+1]
		if n.cont {
			s.cont[l.w]--
		}
		if n.unlike {
			s.unlike[l.w]--
		}
		n.cont, n.unlike = false, false
	}
	pr.wrapSeen(l.w)
}

// wrapSeen takes a hard wrap once the head was sniffed and the lines held
// show one, looking at the longest width and at w, the width whose figures
// just changed.
func (pr *pasteReader) wrapSeen(w int) {
	s := &pr.stats
	if !pr.sniffed || pr.width > 0 {
		return
	}
	if s.longestWraps() {
		pr.width = s.maxw
	} else if UseWrapBelowLongest && s.belowWraps(w) {
		pr.width = w
	}
	s.done = pr.width > 0
}

// phys returns the next physical line and its number. The slice is valid
// until the next call.
func (pr *pasteReader) phys() ([]byte, int, bool) {
	if pr.at == len(pr.ahead) {
		pr.ahead, pr.at = pr.ahead[:0], 0
	} else if pr.at > 256 && pr.at*2 > len(pr.ahead) {
		// The lines not yet returned move to the front, the returned
		// ones' buffers behind them for fill to reuse.
		rev := func(a []physLine) {
			for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
				a[i], a[j] = a[j], a[i]
			}
		}
		rev(pr.ahead[:pr.at])
		rev(pr.ahead[pr.at:])
		rev(pr.ahead)
		pr.ahead, pr.at = pr.ahead[:len(pr.ahead)-pr.at], 0
	}
	pr.fill()
	if pr.at == len(pr.ahead) {
		return nil, 0, false
	}
	if !pr.stats.done {
		pr.uncount()
	}
	l := pr.ahead[pr.at]
	pr.at++
	pr.aheadBytes -= len(l.b) + 1
	return l.b, l.no, true
}

// wrapStats are the figures a hard wrap is recognised by, over the lines
// held ahead: how many lines have each visible width (of at least
// minWrapWidth), how many of those the next line continues (cont) and how
// many it continues without starting as they start (unlike), the longest
// such width and the number of non-blank lines. prefixed counts the head's
// lines by paste prefix. done: a wrap was taken, the figures are no
// longer kept.
type wrapStats struct {
	widths, cont, unlike map[int]int
	maxw, lines          int
	prefixed             map[string]int
	done                 bool
}

// prefixes counts the head's lines that start with each paste prefix.
func (s *wrapStats) prefixes(l []byte) {
	if len(bytes.TrimSpace(l)) == 0 {
		return
	}
	for _, p := range pastePrefixes {
		if bytes.HasPrefix(l, []byte(p)) {
			if s.prefixed == nil {
				s.prefixed = map[string]int{}
			}
			s.prefixed[p]++
		}
	}
}

// longestWraps: a terminal or page cut every line longer than its width:
// the longest lines are all exactly that wide, there are several of them,
// and (nearly) each is followed by a line that starts no log line of its
// own. Equal lines of several ranks are as long as one another but each
// is followed by the next rank's prefixed line.
func (s *wrapStats) longestWraps() bool {
	n, c := s.widths[s.maxw], s.cont[s.maxw]
	return s.maxw >= minWrapWidth && n >= 3 && n*50 >= s.lines && c >= 3 && c*5 >= n*4
}

// belowWraps: the test of UseWrapBelowLongest for one width.
func (s *wrapStats) belowWraps(w int) bool {
	n, c := s.widths[w], s.unlike[w]
	return n >= 5 && c >= 5 && c*5 >= n*4
}

// sniff decides the paste's form from the head's lines.
func (pr *pasteReader) sniff() {
	pr.sniffed = true
	s := &pr.stats
	for _, p := range pastePrefixes {
		if s.lines >= 3 && s.prefixed[p] == s.lines {
			pr.strip = []byte(p)
			break
		}
	}
	if s.longestWraps() {
		pr.width = s.maxw
	}
	if pr.width == 0 && UseWrapBelowLongest {
		pr.width = s.wrapBelowLongest()
	}
	s.done = pr.width > 0
}

// UseWrapBelowLongest also looks for a hard wrap narrower than the head's
// longest line: a wrapped capture concatenated after an unwrapped one
// ("cat A B", QA 38b) has A's long lines above B's cut ones. The width
// taken is one at least 3 lines have, nearly each of them (4 in 5)
// continued by the next line, the most continued such width. Stricter
// than the longest width's test, as a width below the longest is weaker
// evidence: at least 5 such lines, and a continuation that begins as the
// line before it did ("E1210 03:24:54…" after "E1210 03:24:54…", a C++
// glog line vlaunch does not parse as a log line's start) does not count.
var UseWrapBelowLongest = true

// wrapBelowLongest returns the most continued width below the longest
// that passes belowWraps (the widest of equals), 0 when none does.
func (s *wrapStats) wrapBelowLongest() int {
	best, bestC := 0, 0
	for w := range s.widths {
		if c := s.unlike[w]; s.belowWraps(w) && (c > bestC || c == bestC && w > best) {
			best, bestC = w, c
		}
	}
	return best
}

// pastePrefixes are the Markdown block prefixes removed when every line
// of the head has one: a list item's marker, a heading's "# " (a page
// converted line by line) and an indented code block.
var pastePrefixes = []string{"- ", "* ", "+ ", "# ", "    ", "\t"}

// minWrapWidth is the narrowest hard wrap recognised: terminals are 80
// columns wide or more, and a head whose longest line is shorter has
// nothing to join.
const minWrapWidth = 60

// visibleWidth is the number of characters a terminal shows of b: its
// runes, without ANSI escape sequences.
func visibleWidth(b []byte) int {
	if bytes.IndexByte(b, 0x1b) < 0 {
		return utf8.RuneCount(b)
	}
	n := 0
	for i := 0; i < len(b); {
		if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '[' {
			i = skipCSI(b, i+2)
			continue
		}
		_, sz := utf8.DecodeRune(b[i:])
		i += sz
		n++
	}
	return n
}

// evidence switches decoding on when l shows a form a plain vLLM log
// never has.
func (pr *pasteReader) evidence(l []byte) {
	if !pr.md && bytes.IndexByte(l, '\\') >= 0 && mdEvidence(l) {
		pr.md = true
	}
	if !pr.html && bytes.IndexByte(l, '&') >= 0 && htmlEvidence(l) {
		pr.html = true
	}
}

// mdEvidence: a Markdown escape inside vLLM's own syntax — the source
// location's bracket right after the logger's timestamp ("01:06:06
// \[core.py:1]"), an escaped underscore in a process prefix
// ("(EngineCore\_DP0 pid="), or an escaped Python dunder ("\_\_init\_\_").
func mdEvidence(l []byte) bool {
	if bytes.Contains(l, []byte(`\_\_`)) {
		return true
	}
	for off := 0; ; {
		i := bytes.Index(l[off:], []byte(` \[`))
		if i < 0 {
			break
		}
		at := off + i
		if at >= 8 && isClock(l[at-8:at]) {
			return true
		}
		if at >= 12 && isClockMillis(l[:at]) {
			return true
		}
		off = at + 3
	}
	// Two escaped underscores inside one word that is no path component
	// ("total\_gpu\_memory=", "gpu\_memory\_utilization"): a Windows path
	// has "\_" only where a directory or file name starts with an
	// underscore.
	for off := 0; ; {
		i := bytes.Index(l[off:], []byte(`\_`))
		if i < 0 {
			break
		}
		at := off + i
		w := at
		for w > 0 && (isAlnum(l[w-1]) || l[w-1] == '-' || l[w-1] == '.') {
			w--
		}
		// The word must not be a path component ("D:\a\_temp\_runner",
		// "C:\actions-runner\_work\_temp": a Windows runner's directories).
		if w < at && isAlnum(l[at-1]) && (w == 0 || l[w-1] != '\\' && l[w-1] != '/' && l[w-1] != '_') {
			j := at + 2
			for j < len(l) && isAlnum(l[j]) {
				j++
			}
			if j > at+2 && bytes.HasPrefix(l[j:], []byte(`\_`)) && j+2 < len(l) && isAlnum(l[j+2]) {
				return true
			}
		}
		off = at + 2
	}
	if i := bytes.Index(l, []byte(` pid=`)); i > 0 {
		if j := bytes.LastIndexByte(l[:i], '('); j >= 0 && bytes.Contains(l[j:i], []byte(`\_`)) {
			return true
		}
	}
	return false
}

// isClock reports whether b is "HH:MM:SS".
func isClock(b []byte) bool {
	return len(b) == 8 && isDigit(b[0]) && isDigit(b[1]) && b[2] == ':' && isDigit(b[3]) && isDigit(b[4]) &&
		b[5] == ':' && isDigit(b[6]) && isDigit(b[7])
}

// isClockMillis reports whether b ends in "HH:MM:SS.fff" or "HH:MM:SS,fff".
func isClockMillis(b []byte) bool {
	i := len(b)
	for i > 0 && isDigit(b[i-1]) {
		i--
	}
	return i < len(b) && i >= 9 && (b[i-1] == '.' || b[i-1] == ',') && isClock(b[i-9:i-1])
}

// htmlEvidence: an entity where vLLM writes the character itself — a
// line quoted in HTML ("&gt; INFO", "&gt; (EngineCore pid=1)") or a quote
// of Python's repr syntax ("{&#39;model&#39;: ", "model=&#39;",
// "ValueError(&quot;").
func htmlEvidence(l []byte) bool {
	t := trimSpaceLeft(l)
	if bytes.HasPrefix(t, []byte("&gt;")) {
		return true
	}
	// vLLM's own messages never hold a character reference; a request's
	// logged prompt or output may (the user's text), and so may an HTTP
	// access line's path: those lines are no evidence.
	if bytes.Contains(l, []byte("request")) || bytes.Contains(l, []byte("prompt")) || bytes.Contains(l, []byte("output")) ||
		bytes.Contains(l, []byte(" HTTP/")) {
		return false
	}
	for _, q := range [][]byte{[]byte("&#39;"), []byte("&#x27;"), []byte("&quot;"), []byte("&lt;"), []byte("&gt;")} {
		if bytes.Contains(l, q) {
			return true
		}
	}
	return false
}

// next returns the next logical line and the number of its first
// physical line.
func (pr *pasteReader) next() ([]byte, int, bool) {
	var raw []byte
	var no int
	if pr.held {
		pr.held = false
		raw, no = pr.pending, pr.pno
	} else {
		r, n, ok := pr.phys()
		if !ok {
			return nil, 0, false
		}
		raw, no = r, n
	}
	if len(pr.strip) > 0 && bytes.HasPrefix(raw, pr.strip) {
		raw = raw[len(pr.strip):]
	}
	switch {
	case pr.width > 0 && pr.wrapsAt(raw):
		raw = pr.join(raw)
	case unclosedArgs(raw):
		raw = pr.joinArgs(raw)
	}
	pr.evidence(raw)
	return pr.decode(raw), no, true
}

// argsMark opens the dict of vLLM's "non-default args" line (0.9 on,
// vllm/entrypoints/utils.py log_non_default_args).
var argsMark = []byte("non-default args: {")

// unclosedArgs reports a "non-default args" line whose dict does not
// close on it: vLLM prints the dict on one line, so the rest was cut by a
// hard wrap too rare in the file to be recognised as the paste's width
// (vllm-project/vllm-ascend#2889: a tmux copy 265 columns wide wraps it
// mid-key, "'s" / "peculative_config': {…}}", and only two other lines).
func unclosedArgs(raw []byte) bool {
	i := bytes.Index(raw, argsMark)
	return i >= 0 && reprDepth(raw[i+len(argsMark)-1:]) > 0
}

// reprDepth is how many brackets ({, [, () a Python repr leaves open,
// quoted text skipped ('…', "…", with backslash escapes).
func reprDepth(b []byte) int {
	depth := 0
	var q byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case q != 0 && c == '\\':
			i++
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '{' || c == '[' || c == '(':
			depth++
		case c == '}' || c == ']' || c == ')':
			depth--
		}
	}
	return depth
}

// maxArgsWrap is how many physical lines a cut "non-default args" line
// may continue over: a hard wrap cuts a dict of a few hundred characters
// into a handful.
const maxArgsWrap = 8

// joinArgs appends to an unclosed "non-default args" line the physical
// lines that continue it (continuesWrap), as they are (a hard wrap cuts
// anywhere, mid-word too), when they close its dict within maxArgsWrap
// lines; otherwise it joins nothing, so that a line cut for good (an
// excerpt) does not swallow the lines after it.
func (pr *pasteReader) joinArgs(first []byte) []byte {
	pr.joined = append(pr.joined[:0], first...)
	n := 0
	for k := 0; k < maxArgsWrap && pr.at+k < len(pr.ahead); k++ {
		r := pr.stripped(pr.ahead[pr.at+k].b)
		if !continuesWrap(r) || len(pr.joined)+len(r) > MaxLineBytes {
			break
		}
		pr.joined = append(pr.joined, r...)
		if !unclosedArgs(pr.joined) {
			n = k + 1
			break
		}
	}
	if n == 0 {
		return first
	}
	for ; n > 0; n-- {
		pr.phys()
		pr.joins++
	}
	return pr.joined
}

// stripped is a physical line without the paste's block prefix.
func (pr *pasteReader) stripped(r []byte) []byte {
	if len(pr.strip) > 0 && bytes.HasPrefix(r, pr.strip) {
		return r[len(pr.strip):]
	}
	return r
}

// wrapSlack is how many columns short of the wrap width a line with a
// process prefix may still have been cut at it. vLLM colours its prefix
// ("\x1b[1;36m(APIServer pid=121)\x1b[0;0m", _add_prefix in vllm/utils,
// 0.10.x) and Ray its own ("\x1b[36m(RayWorkerWrapper pid=374, ip=…)\x1b[0m"):
// a capture that wrapped the line counting those codes' printable bytes and
// then lost the codes leaves a prefixed line 11 columns short of the width
// per vLLM prefix and 7 per Ray prefix (dennislee22/vLLM-benchmarking's
// 0.10.1.1 logs: widths 136 and 129 beside 147-column continuations).
const wrapSlack = 32

// wrapsAt reports whether a physical line may have been cut at the wrap
// width: it is exactly that wide, or it carries a process prefix and is at
// most wrapSlack columns narrower (join then keeps it as it is unless the
// next line continues it).
func (pr *pasteReader) wrapsAt(raw []byte) bool {
	w := visibleWidth(raw)
	if w == pr.width {
		return true
	}
	if w > pr.width || w < pr.width-wrapSlack {
		return false
	}
	t := trimSpaceLeft(raw)
	return len(t) > 0 && t[0] == '(' && bytes.Contains(t[:min(len(t), 80)], []byte(" pid="))
}

// join appends to a full-width line the physical lines that continue it.
func (pr *pasteReader) join(first []byte) []byte {
	pr.joined = append(pr.joined[:0], first...)
	for i := 0; i < 64; i++ {
		r, n, ok := pr.phys()
		if !ok {
			break
		}
		if !continuesWrap(r) {
			pr.pending = append(pr.pending[:0], r...)
			pr.pno, pr.held = n, true
			break
		}
		pr.joins++
		if len(pr.strip) > 0 && bytes.HasPrefix(r, pr.strip) {
			r = r[len(pr.strip):]
		}
		pr.joined = append(pr.joined, r...)
		if visibleWidth(r) != pr.width || len(pr.joined) > MaxLineBytes {
			break
		}
	}
	return pr.joined
}

// continuesWrap reports whether a physical line after a full-width one
// is its continuation: it starts no log line of its own (no capture
// wrapper, process prefix or logger header) and no traceback line.
func continuesWrap(r []byte) bool {
	if len(r) == 0 {
		return false
	}
	var probe line
	var p parser
	p.parse(r, &probe)
	if probe.level != 0 || len(probe.proc) > 0 || len(probe.stamp) > 0 || len(probe.host) > 0 || probe.grank >= 0 || probe.formats&^fmtANSI != 0 {
		return false
	}
	t := trimSpaceLeft(r)
	return !(bytes.HasPrefix(t, []byte(`File "`)) || bytes.HasPrefix(t, []byte("Traceback (most recent call last)")))
}

// decode undoes the HTML character references and then the Markdown
// escapes the capture showed.
func (pr *pasteReader) decode(b []byte) []byte {
	if pr.html && bytes.IndexByte(b, '&') >= 0 {
		pr.dec = decodeEntities(pr.dec[:0], b)
		b = pr.dec
	}
	if pr.md && bytes.IndexByte(b, '\\') >= 0 {
		pr.dec2 = unescapeMarkdown(pr.dec2[:0], b)
		b = pr.dec2
	}
	return b
}

// unescapeMarkdown removes CommonMark's backslash escapes: a backslash
// before an ASCII punctuation character stands for that character; any
// other backslash is itself.
func unescapeMarkdown(dst, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) && isASCIIPunct(b[i+1]) {
			i++
		}
		dst = append(dst, b[i])
	}
	return dst
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

var entities = []struct {
	name string
	c    string
}{{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", `"`}, {"&apos;", "'"}, {"&nbsp;", " "}}

// decodeEntities decodes the named references a page escapes text with
// and the decimal and hexadecimal ones ("&#39;", "&#x27;"); anything else
// stays as it is.
func decodeEntities(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		if b[i] != '&' {
			dst = append(dst, b[i])
			i++
			continue
		}
		if r, n := entityAt(b[i:]); n > 0 {
			dst = utf8.AppendRune(dst, r)
			i += n
			continue
		}
		dst = append(dst, '&')
		i++
	}
	return dst
}

// entityAt reads a character reference at the start of b.
func entityAt(b []byte) (rune, int) {
	for _, e := range entities {
		if bytes.HasPrefix(b, []byte(e.name)) {
			r, _ := utf8.DecodeRuneInString(e.c)
			return r, len(e.name)
		}
	}
	if len(b) < 4 || b[1] != '#' {
		return 0, 0
	}
	i, base := 2, 10
	if b[2] == 'x' || b[2] == 'X' {
		i, base = 3, 16
	}
	r, start := 0, i
	for i < len(b) && i-start < 6 {
		c := b[i]
		switch {
		case isDigit(c):
			r = r*base + int(c-'0')
		case base == 16 && (c|0x20) >= 'a' && (c|0x20) <= 'f':
			r = r*base + int(c|0x20-'a'+10)
		default:
			goto end
		}
		i++
	}
end:
	if i == start || i >= len(b) || b[i] != ';' || r == 0 || r > utf8.MaxRune || r >= 0xD800 && r <= 0xDFFF {
		return 0, 0
	}
	return rune(r), i + 1
}

// formats are the paste forms the reader decoded so far; a list marker or
// an indentation removed from every line counts as a quote (the format
// "quoted", as "> " does).
func (pr *pasteReader) formats() formatSet {
	var f formatSet
	if pr.md {
		f |= fmtMarkdown
	}
	if pr.html {
		f |= fmtHTML
	}
	if pr.joins > 0 {
		f |= fmtWrapped
	}
	if len(pr.strip) > 0 {
		f |= fmtQuote
	}
	return f
}

// markupLine reports whether a line is the page's markup around a pasted
// log rather than a line of it: a code fence ("```", "```log", "~~~"), a
// <details>, <summary>, <pre> or <code> tag, or an empty line. vLLM never
// logs one alone on a line, so it belongs to no process (it would
// otherwise be the unprefixed main process's last line).
func markupLine(l *line) bool {
	if l.level != 0 || len(l.proc) > 0 {
		return false
	}
	if len(l.msg) == 0 {
		return l.pid == 0 && len(l.host) == 0 && l.grank < 0 // an empty line
	}
	if len(l.msg) < 3 {
		return false
	}
	m := bytes.TrimRight(l.msg, " \t")
	if bytes.HasPrefix(m, []byte("```")) || bytes.HasPrefix(m, []byte("~~~")) {
		info := bytes.TrimLeft(m, "`~")
		return bytes.IndexAny(info, "` ") < 0 // "```log", not "```x``` text"
	}
	for _, tag := range []string{"<details>", "</details>", "<summary>", "</summary>", "<pre>", "</pre>", "<code>", "</code>", "<pre><code>", "</code></pre>"} {
		if bytes.HasPrefix(m, []byte(tag)) && (tag[1] == '/' || bytes.HasSuffix(m, []byte(">"))) {
			return true
		}
	}
	return false
}
