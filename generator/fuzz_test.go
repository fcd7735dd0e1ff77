package generator

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// FuzzShellWords checks the quoting property every template relies on: a
// command rendered by shellWords parses back (by bash's grammar) into
// exactly the words that went in, so no input can add words, expansions or
// commands.
func FuzzShellWords(f *testing.F) {
	for _, s := range []string{"plain", "two words", "it's", `"dq"`, "$(id)", "`id`", "${HOME}", "a\nb", "-x", "--flag=v", "'\\''", "\t", "*?[a]", "~root", "!x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) {
			if _, err := shq(s); err == nil {
				t.Fatal("NUL must be refused")
			}
			return
		}
		in := []Arg{{Text: "vllm"}, {Text: "serve"}, {Text: s}, {Text: "--served-model-name"}, {Text: s}}
		cmd, err := shellWords(in, "  ")
		if err != nil {
			return // mvdan refuses what bash cannot represent (e.g. invalid UTF-8 in some forms)
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd+"\n"), "")
		if err != nil {
			t.Fatalf("%q renders as unparsable %q: %v", s, cmd, err)
		}
		if len(file.Stmts) != 1 {
			t.Fatalf("%q renders as %d statements: %q", s, len(file.Stmts), cmd)
		}
		call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) != len(in) {
			t.Fatalf("%q renders as %q, not %d words", s, cmd, len(in))
		}
		for i, w := range call.Args {
			got, err := expand.Literal(&expand.Config{}, w)
			if err != nil || got != in[i].Text {
				t.Fatalf("word %d of %q: got %q (%v), want %q", i, cmd, got, err, in[i].Text)
			}
		}
	})
}
