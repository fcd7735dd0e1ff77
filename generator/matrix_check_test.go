package generator

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// launch is what one generated script or container starts: the `vllm
// serve` arguments (model first) and the environment it sets.
type launch struct {
	serve [][]string
	env   map[string]string
}

// scriptLaunch reads a bash script the way a reviewer would check it:
// every `export NAME=VALUE`, every `docker run -e NAME=VALUE` and every
// `vllm serve` command (also behind `docker run --entrypoint vllm IMAGE`).
func scriptLaunch(t *testing.T, name, script string) launch {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	l := launch{env: map[string]string{}}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.DeclClause:
			if x.Variant.Value == "export" {
				for _, a := range x.Args {
					if a.Name != nil {
						l.env[a.Name.Value] = literal(a.Value)
					}
				}
			}
		case *syntax.CallExpr:
			words := make([]string, len(x.Args))
			for i, w := range x.Args {
				words[i] = literal(w)
			}
			l.addCall(words)
		}
		return true
	})
	return l
}

func (l *launch) addCall(words []string) {
	sawVLLM := false
	for i, w := range words {
		if w == "-e" && i+1 < len(words) && len(words) > 1 && words[0] == "docker" {
			k, v, _ := strings.Cut(words[i+1], "=")
			l.env[k] = v
		}
		if w == "vllm" || strings.HasSuffix(w, "/vllm") {
			sawVLLM = true
		}
		if w == "serve" && sawVLLM {
			l.serve = append(l.serve, words[i+1:])
			return
		}
	}
}

// literal expands a word without an environment: quoting is removed and
// parameters become empty, which leaves every flag name intact.
func literal(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	s, err := expand.Literal(&expand.Config{}, w)
	if err != nil {
		return w.Lit()
	}
	return s
}

// isOption: a word argparse treats as an option (negative numbers are
// values), as validate's extra_args rule reads them.
func isOption(a string) bool {
	return len(a) >= 2 && a[0] == '-' && !isNumber(a)
}

// flagsOf splits `vllm serve` arguments into flags and their first value
// ("" for a switch or a flag followed by another flag).
func flagsOf(args []string) map[string]string {
	out := map[string]string{}
	for i, a := range args {
		if !isOption(a) {
			continue
		}
		name, v, ok := strings.Cut(a, "=")
		if !ok && i+1 < len(args) && !isOption(args[i+1]) {
			v = args[i+1]
		}
		out[name] = v
	}
	return out
}
