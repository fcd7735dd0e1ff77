package logs

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// lineReader yields the physical lines of a source, each at most
// MaxLineBytes, without allocating per line: the slice it returns is valid
// until the next call.
type lineReader struct {
	br   *bufio.Reader
	no   int
	cut  int // lines longer than MaxLineBytes
	long []byte
	err  error
}

func newLineReader(br *bufio.Reader) *lineReader { return &lineReader{br: br} }

// next returns the next line without its line ending, or false at the end.
func (lr *lineReader) next() ([]byte, bool) {
	line, err := lr.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		line = lr.skipRest(line)
		err = nil
	}
	if len(line) == 0 && err != nil {
		if !errors.Is(err, io.EOF) {
			lr.err = err
		}
		return nil, false
	}
	lr.no++
	return trimEOL(line), true
}

// skipRest keeps the first MaxLineBytes of an over-long line and discards
// the remainder up to its newline.
func (lr *lineReader) skipRest(first []byte) []byte {
	lr.cut++
	lr.long = append(lr.long[:0], first...)
	for {
		_, err := lr.br.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			return lr.long
		}
	}
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// lastSegment returns what a terminal shows of a line that tqdm redrew with
// carriage returns: the text after the last non-empty '\r' segment.
func lastSegment(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	for {
		i := bytes.LastIndexByte(b, '\r')
		if i < 0 {
			return b
		}
		if i < len(b)-1 {
			return b[i+1:]
		}
		b = b[:i]
	}
}

// caretCR is how `cat -v`, some terminals and some pastes show a carriage
// return: a CRLF line ends in "^M" (vllm#53743: "… version
// 0.1.dev20175+g2573878a3.d20260821^M"), a redrawn progress bar has one
// between its segments.
var caretCR = []byte("^M")

// lastCaretSegment is lastSegment for a line whose carriage returns are
// shown as "^M"; redrawn says a segment before the kept one was dropped
// (a progress bar), not only a trailing "^M".
func lastCaretSegment(b []byte) (seg []byte, redrawn bool) {
	for {
		i := bytes.LastIndex(b, caretCR)
		if i < 0 {
			return b, false
		}
		if rest := b[i+len(caretCR):]; len(bytes.TrimSpace(rest)) > 0 {
			return rest, true
		}
		b = b[:i]
	}
}
