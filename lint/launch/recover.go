package launch

import (
	"bytes"

	"mvdan.cc/sh/v3/syntax"
)

// maxRecover bounds how many broken lines are blanked to get past syntax
// errors (each retry re-parses the whole text).
const maxRecover = 16

// parse parses src as bash. A syntax error is reported once (VL001); the
// line it points at is then blanked and the rest parsed again, so that one
// broken line does not hide every other finding in the file.
func (fe *frontEnd) parse(src *source) *syntax.File {
	for attempt := 0; attempt <= maxRecover; attempt++ {
		p := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash))
		f, err := p.Parse(bytes.NewReader(src.data), src.file)
		if err == nil {
			return f
		}
		if attempt == 0 {
			fe.diags = append(fe.diags, fe.parseErr(src, err))
		}
		if !blankErrorLine(src, err) {
			return nil
		}
	}
	return nil
}

// blankErrorLine replaces the line an error points at with spaces (offsets
// kept); false when the error has no position or the line is already blank.
func blankErrorLine(src *source, err error) bool {
	var pos syntax.Pos
	switch e := err.(type) {
	case syntax.ParseError:
		pos = e.Pos
	case syntax.LangError:
		pos = e.Pos
	default:
		return false
	}
	off := int(pos.Offset())
	if !pos.IsValid() || off > len(src.data) {
		return false
	}
	start := bytes.LastIndexByte(src.data[:min(off, len(src.data))], '\n') + 1
	end := lineEnd(src.data, start)
	// The lines the broken one continues into belong to the same command.
	for end < len(src.data) && continued(src.data[start:end]) {
		end = lineEnd(src.data, end+1)
	}
	if len(bytes.TrimSpace(src.data[start:end])) == 0 {
		return false
	}
	data := append([]byte(nil), src.data...)
	for i := start; i < end; i++ {
		data[i] = ' '
	}
	src.data = data
	return true
}

// lineEnd returns the offset of the newline ending the line at start.
func lineEnd(data []byte, start int) int {
	if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
		return start + i
	}
	return len(data)
}

// continued reports text whose last line ends in a continuation (`\`, or
// PowerShell's backtick).
func continued(text []byte) bool {
	t := bytes.TrimRight(text, " \t\r")
	return bytes.HasSuffix(t, []byte("\\")) || bytes.HasSuffix(t, []byte("`"))
}
