package generator

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"

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

// FuzzExtraArgs: validate.BundleRefusals reads any extra_args without panicking,
// and what it accepts, vlaunch's linter does not call a stray argument or
// a switch with a value (VL124, VL105) — the two must read argparse alike.
func FuzzExtraArgs(f *testing.F) {
	for _, s := range []string{"--enforce-eager", "--enforce-eager true", "stray", "--max-log-len 10", "--max-log-len",
		"-O3", "--seed -1", "--api-key k", "--no-enforce-eager", "--unknown-flag value", "--kv-cache-dtype=fp8", "--dtype auto x"} {
		f.Add("0.11.0", s)
		f.Add("0.22.1", s)
	}
	f.Fuzz(func(t *testing.T, version, line string) {
		if len(line) > 200 || strings.ContainsAny(line, "\x00\n\r") {
			return
		}
		if _, err := vllm.ParseVersion(version); err != nil {
			return
		}
		d := &spec.Deployment{VLLM: spec.VLLM{Version: version, ExtraArgs: strings.Fields(line)}}
		r, _, _ := vllm.ResolveString(version)
		if validate.BundleRefusals(&resolve.Deployment{Spec: d, Release: r}, "bare").HasErrors() {
			return
		}
		for _, code := range lintCodes(t, r.Version.String(), d.VLLM.ExtraArgs) {
			if code == "VL124" || code == "VL105" {
				t.Fatalf("extra_args %q (vLLM %s) accepted, but lint reports %s", d.VLLM.ExtraArgs, r.Version, code)
			}
		}
	})
}
