package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct{ in, want, line string }{
		{"plain text, ünïcode ✓", "plain text, ünïcode ✓", "plain text, ünïcode ✓"},
		{"tab\tand\nnewline", "tab\tand\nnewline", `tab	and\nnewline`},
		{"\x1b]0;pwned\x07title", `\u001b]0;pwned\u0007title`, `\u001b]0;pwned\u0007title`},
		{"\x1b[2J\rcarriage", `\u001b[2J\rcarriage`, `\u001b[2J\rcarriage`},
		{"del\x7f c1\u009b[31m", `del\u007f c1\u009b[31m`, `del\u007f c1\u009b[31m`},
		{"latin-1 \xe9 and lone \x9b", `latin-1 \xe9 and lone \x9b`, `latin-1 \xe9 and lone \x9b`},
		{`literal \u001b stays`, `literal \u001b stays`, `literal \u001b stays`},
	} {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := EscapeLine(tt.in); got != tt.line {
			t.Errorf("EscapeLine(%q) = %q, want %q", tt.in, got, tt.line)
		}
	}
}

// TestTerminalWriterSplitsAndJSON: a sequence split across writes comes out
// whole, a truncated one is escaped by Flush, and JSON stays valid JSON.
func TestTerminalWriterSplitsAndJSON(t *testing.T) {
	in := "é✓\x1b\u009b end"
	for cut := 0; cut <= len(in); cut++ {
		var buf bytes.Buffer
		w := NewTerminalWriter(&buf)
		w.Write([]byte(in[:cut]))
		w.Write([]byte(in[cut:]))
		w.Flush()
		if got := buf.String(); got != Escape(in) {
			t.Errorf("cut at %d: %q, want %q", cut, got, Escape(in))
		}
	}
	var buf bytes.Buffer
	w := NewTerminalWriter(&buf)
	w.Write([]byte("ok \xe2\x9c"))
	w.Flush()
	if buf.String() != `ok \xe2\x9c` {
		t.Errorf("a truncated sequence must be flushed escaped, got %q", buf.String())
	}
	var js bytes.Buffer
	if err := Print(&js, FormatJSON, Diagnostics{{Code: "VL001", Severity: Error, Message: "a\x7fb\u009bc\x1bd"}}, nil, nil); err != nil {
		t.Fatal(err)
	}
	var v struct{ Diagnostics []struct{ Message string } }
	if err := json.Unmarshal(js.Bytes(), &v); err != nil || len(v.Diagnostics) != 1 || v.Diagnostics[0].Message != "a\x7fb\u009bc\x1bd" {
		t.Errorf("escaped JSON must decode to the original message: %v %q\n%s", err, v.Diagnostics, js.String())
	}
	if hasControl(js.String()) {
		t.Errorf("JSON output carries raw control characters: %q", js.String())
	}
}

// TestTextPrinterEscapes: a hostile file name, message, hint and source
// line reach the terminal escaped, and the caret still lines up.
func TestTextPrinterEscapes(t *testing.T) {
	src := Sources{"a\x1b.sh": []byte("\tvllm serve \x1b[31mred --bad\n")}
	ds := Diagnostics{{Code: "VL101", Severity: Error, File: "a\x1b.sh", Line: 1, Col: 22,
		Message: "flag \x1b]0;x\x07 unknown\nfake: ok", Hint: "\x9bhint"}}
	var buf bytes.Buffer
	if err := Print(&buf, FormatText, ds, src, nil); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if hasControl(out) || !utf8.ValidString(out) {
		t.Fatalf("raw control bytes in text output:\n%q", out)
	}
	want := "a\\u001b.sh:1:22: error: flag \\u001b]0;x\\u0007 unknown\\nfake: ok [VL101]\n" +
		"     1 | \tvllm serve \\u001b[31mred --bad\n" +
		"       | \t" + strings.Repeat(" ", 25) + "^\n" + // under "--bad", past the 6-character escape
		"    hint: \\x9bhint\n1 error, 0 warnings\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// hasControl reports a raw control character other than tab and newline.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return needsEscape(r, true) })
}

// FuzzEscape: whatever the input, the output is valid UTF-8 without control
// characters (tab and newline aside), and escaping is idempotent.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31m", "\xe2\x9c", "\u009b", "a\tb\nc\r\x7f", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := Escape(s)
		if !utf8.ValidString(e) || hasControl(e) {
			t.Fatalf("Escape(%q) = %q", s, e)
		}
		if Escape(e) != e || EscapeLine(EscapeLine(s)) != EscapeLine(s) {
			t.Fatalf("escaping %q twice changed it", s)
		}
		var buf bytes.Buffer
		w := NewTerminalWriter(&buf)
		half := len(s) / 2
		w.Write([]byte(s[:half]))
		w.Write([]byte(s[half:]))
		w.Flush()
		if buf.String() != e {
			t.Fatalf("TerminalWriter(%q) = %q, want %q", s, buf.String(), e)
		}
	})
}
