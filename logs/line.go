package logs

import (
	"bytes"
)

// line is one physical log line taken apart. Every slice points into the
// reader's buffer (or the ANSI scratch buffer) and is valid only until the
// next line is read, so parsing a line allocates nothing.
type line struct {
	no int
	// stamp is the capture tool's timestamp (docker/kubectl --timestamps,
	// journald, CI), vstamp vLLM's own "MM-DD HH:MM:SS".
	stamp, vstamp []byte
	// host is what the capture tool or Ray says the line came from: a pod,
	// a journald host, a compose service, an NCCL hostname or a Ray IP.
	// origin is the capture tool's part alone (pod, journald host, compose
	// service): two servers interleaved in one capture differ there, while
	// a Ray worker's IP is a node of the same server.
	host, origin []byte
	// proc and tag are the process prefix "(proc tag pid=N)", e.g.
	// "(VllmWorker rank=1 pid=7)" gives proc "VllmWorker", tag "rank=1".
	proc, tag []byte
	pid       int
	// grank is the global rank of a "[rank3]:" torch prefix, -1 if none.
	grank int
	// outerDP is the DP rank of an engine core whose prefix wraps the
	// process's own ("(EngineCore_DP0 pid=1) (RayWorkerWrapper pid=2) …":
	// the Ray executor's worker, relayed by its engine core), -1 if none.
	outerDP int
	level   byte // 'D', 'I', 'W', 'E', 'C' from vLLM's header; 0 without one
	src     []byte
	msg     []byte
	// repeated is Ray's "[repeated 30x across cluster]" count.
	repeated int
	// indent marks a message that starts with white space: a traceback's
	// source line ("    raise RuntimeError(...)"), which failure rules skip.
	indent  bool
	formats formatSet
	// rankName is scratch space for the "rankN" name of a "[rankN]:" line.
	rankName []byte
}

// formatSet records which capture formats a file showed.
type formatSet uint16

const (
	fmtANSI formatSet = 1 << iota
	fmtTimestamps
	fmtKubectlPrefix
	fmtJournald
	fmtCompose
	fmtRay
	fmtCI
	fmtQuote
	fmtProgress
	fmtStern
	fmtMarkdown
	fmtHTML
	fmtWrapped
)

var formatNames = []string{"ansi", "timestamps", "kubectl-prefix", "journald", "compose", "ray", "ci", "quoted", "progress-bars", "stern", "markdown-escaped", "html-entities", "wrapped"}

// names lists the formats in a stable order.
func (f formatSet) names() []string {
	var out []string
	for i, n := range formatNames {
		if f&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// parser holds the scratch space of line parsing.
type parser struct {
	scratch []byte
}

// parse fills l from raw. It peels the capture tool's wrappers, the process
// prefix and vLLM's logger header, in whatever order they were stacked.
func (p *parser) parse(raw []byte, l *line) {
	*l = line{no: l.no, grank: -1, outerDP: -1, rankName: l.rankName}
	b := lastSegment(raw)
	if len(b) != len(raw) {
		l.formats |= fmtProgress
	}
	if bytes.Contains(b, caretCR) {
		var redrawn bool
		if b, redrawn = lastCaretSegment(b); redrawn {
			l.formats |= fmtProgress
		}
	}
	if bytes.IndexByte(b, 0x1b) >= 0 || bytes.Contains(b, caretESC) || hasWordSGR(b) {
		p.scratch = stripANSI(p.scratch[:0], b)
		b = p.scratch
		l.formats |= fmtANSI
	}
	b = peelWrappers(b, l)
	b = peelProcess(b, l)
	b = peelHeader(b, l)
	if l.level == 0 && len(l.proc) == 0 {
		b = findGluedHeader(b, l)
	}
	if len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		l.indent = true
		b = trimSpaceLeft(b)
	}
	l.msg = peelRepeated(b, l)
}

// peelWrappers removes capture-tool prefixes; they can stack
// (kubectl --prefix --timestamps, a CI timestamp inside a quoted paste).
func peelWrappers(b []byte, l *line) []byte {
	for i := 0; i < 6; i++ {
		n := peelOneWrapper(b, l)
		if len(n) == len(b) {
			return b
		}
		b = n
	}
	return b
}

func peelOneWrapper(b []byte, l *line) []byte {
	if len(b) == 0 {
		return b
	}
	switch c := b[0]; {
	case c == ' ' || c == '|' || c == '>':
		return peelPaste(b, l)
	case c == 0xe2: // "▎" (U+258E), a quote bar some renderers paste
		if bytes.HasPrefix(b, []byte("▎")) {
			l.formats |= fmtQuote
			return trimSpaceLeft(b[len("▎"):])
		}
		if bytes.HasPrefix(b, boxBar) {
			// A terminal UI's frame (k9s: "│ INFO ... │", padded to the
			// pane's width), on both sides of the line.
			l.formats |= fmtQuote
			b = bytes.TrimRight(b[len(boxBar):], " ")
			if bytes.HasSuffix(b, boxBar) {
				b = bytes.TrimRight(b[:len(b)-len(boxBar)], " ")
			}
			return trimSpaceLeft(b)
		}
	case c == '[':
		return peelBracket(b, l)
	case c == '#':
		return peelHeading(b, l)
	case c >= '0' && c <= '9':
		if r := peelPyLogging(b, l); len(r) != len(b) {
			return r
		}
		return peelTimestamp(b, l)
	case c >= 'A' && c <= 'Z':
		if r := peelJournald(b, l); len(r) != len(b) {
			return r
		}
		return peelCompose(b, l)
	case c >= 'a' && c <= 'z':
		if r := peelNCCL(b, l); len(r) != len(b) {
			return r
		}
		if r := peelCompose(b, l); len(r) != len(b) {
			return r
		}
		return peelStern(b, l)
	}
	return b
}

// boxBar is the box-drawing vertical line (U+2502) a terminal UI frames
// each line of a pane with.
var boxBar = []byte("│")

// peelPaste removes "  | " (CI log tables) and "> " (quoted replies).
func peelPaste(b []byte, l *line) []byte {
	t := trimSpaceLeft(b)
	switch {
	case bytes.HasPrefix(t, []byte("| ")), bytes.Equal(t, []byte("|")):
		l.formats |= fmtCI
		return trimSpaceLeft(t[1:])
	case len(t) > 0 && t[0] == '>':
		// "> ", and a quote in a quote: ">> " (and "> > ", whose second
		// bar the next round peels).
		j := 0
		for j < len(t) && t[j] == '>' {
			j++
		}
		if j == len(t) || t[j] == ' ' {
			// The marker's one space is Markdown's, not the line's: a
			// quoted "> Memory access fault …" is not indented, while
			// "> ␣␣␣␣File …" keeps its traceback indentation.
			l.formats |= fmtQuote
			if j < len(t) {
				j++
			}
			return t[j:]
		}
	}
	return b
}

// peelHeading removes a Markdown heading's "# " (up to six '#') that a
// converted page put before each line of a pasted log, only before what
// starts a vLLM line: a shell comment or a note stays as it is.
func peelHeading(b []byte, l *line) []byte {
	j := 0
	for j < len(b) && j < 6 && b[j] == '#' {
		j++
	}
	if j == 0 || j >= len(b) || b[j] != ' ' {
		return b
	}
	rest := trimSpaceLeft(b[j:])
	if !vllmLineStart(rest) {
		return b
	}
	l.formats |= fmtQuote
	return rest
}

func trimSpaceLeft(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[i:]
}
