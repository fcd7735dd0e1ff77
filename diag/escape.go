package diag

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Terminal safety. Findings quote the files and values users give vlaunch
// (a linted script, a spec, what a host command printed), and a file can
// hold escape sequences that would recolour, retitle or rewrite the
// terminal showing the report. Every text vlaunch prints therefore goes
// through escape: control characters (C0 except tab and newline, DEL, C1)
// become visible escapes, and so do bytes that are not UTF-8 (a lone 0x9b
// is CSI on an 8-bit terminal).
//
// The escapes are the ones JSON strings use (\r, \b, \f, \u001b), so the
// same filter is harmless on JSON and SARIF output, where the encoder
// already escapes C0 but passes DEL and C1 through. A literal backslash is
// left alone: "\u001b" written in a file prints as those six characters,
// which is what it is.

// Escape returns s with control characters and invalid UTF-8 made visible;
// tab and newline are kept, for multi-line text.
func Escape(s string) string { return escape(s, true) }

// EscapeLine is Escape for one-line fields (a message, a hint, a file
// name): a newline is escaped too, so a value cannot forge an extra line of
// the report.
func EscapeLine(s string) string { return escape(s, false) }

func escape(s string, keepNewline bool) string {
	if clean(s, keepNewline) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case needsEscape(r, keepNewline):
			b.WriteString(runeEscape(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean is the fast path: nothing to escape.
func clean(s string, keepNewline bool) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			return cleanUnicode(s[i:], keepNewline)
		} else if needsEscape(rune(c), keepNewline) {
			return false
		}
	}
	return true
}

func cleanUnicode(s string, keepNewline bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || needsEscape(r, keepNewline) {
			return false
		}
		i += size
	}
	return true
}

func needsEscape(r rune, keepNewline bool) bool {
	switch {
	case r == '\t':
		return false
	case r == '\n':
		return !keepNewline
	}
	return r < 0x20 || (r >= 0x7f && r <= 0x9f)
}

func runeEscape(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// TerminalWriter escapes everything written through it (see Escape). A
// UTF-8 sequence split across two writes is held back until it completes;
// Flush writes out whatever is held when the output ends.
type TerminalWriter struct {
	w    io.Writer
	tail []byte
}

// NewTerminalWriter returns a writer that escapes control characters
// before they reach w.
func NewTerminalWriter(w io.Writer) *TerminalWriter { return &TerminalWriter{w: w} }

// Write escapes p and writes it; it reports len(p) on success.
func (t *TerminalWriter) Write(p []byte) (int, error) {
	data := append(t.tail, p...)
	cut := incompleteSuffix(data)
	t.tail = append([]byte(nil), data[cut:]...)
	if _, err := io.WriteString(t.w, Escape(string(data[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a held-back incomplete sequence, escaped as invalid bytes.
func (t *TerminalWriter) Flush() error {
	if len(t.tail) == 0 {
		return nil
	}
	s := Escape(string(t.tail))
	t.tail = nil
	_, err := io.WriteString(t.w, s)
	return err
}

// incompleteSuffix returns where a trailing, still incomplete UTF-8
// sequence starts (len(b) when there is none).
func incompleteSuffix(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(b[i]) {
			if b[i] >= 0xc0 && !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}
